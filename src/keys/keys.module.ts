import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SigningKeyEntity } from './persistence/signing-key.entity';
import { TypeOrmSigningKeyRepository } from './persistence/typeorm-signing-key.repository';
import { SigningKeyRepository } from './signing-key.repository';
import { SigningKeyStore } from './signing-key.store';

@Module({
  imports: [TypeOrmModule.forFeature([SigningKeyEntity])],
  providers: [{ provide: SigningKeyRepository, useClass: TypeOrmSigningKeyRepository }, SigningKeyStore],
  exports: [SigningKeyStore],
})
export class KeysModule {}
