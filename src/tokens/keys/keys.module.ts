import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit/audit.module';
import { KeyEncryptionModule } from '../../platform/key-encryption/key-encryption.module';
import { SigningKeyEntity } from './persistence/signing-key.entity';
import { TypeOrmSigningKeyRepository } from './persistence/typeorm-signing-key.repository';
import { SigningKeyRepository } from './signing-key.repository';
import { SigningKeyRotator } from './signing-key.rotator';
import { SigningKeyStore } from './signing-key.store';

@Module({
  imports: [AuditModule, KeyEncryptionModule, TypeOrmModule.forFeature([SigningKeyEntity])],
  providers: [{ provide: SigningKeyRepository, useClass: TypeOrmSigningKeyRepository }, SigningKeyRotator, SigningKeyStore],
  exports: [SigningKeyStore, SigningKeyRotator, KeyEncryptionModule],
})
export class KeysModule {}
