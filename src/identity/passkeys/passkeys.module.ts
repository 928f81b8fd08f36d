import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KeyEncryptionModule } from '../../platform/key-encryption/key-encryption.module';
import { ClientAuthModule } from '../client-auth/client-auth.module';
import { PasskeyCeremonies } from './passkey-ceremonies';
import { PasskeyRepository } from './passkey.repository';
import { PasskeyEntity } from './persistence/passkey.entity';
import { TypeOrmPasskeyRepository } from './persistence/typeorm-passkey.repository';
import { WebAuthnChallenges } from './webauthn-challenges';

/** Users' passkeys (docs/passkeys.md): storage and the WebAuthn ceremonies. */
@Module({
  imports: [TypeOrmModule.forFeature([PasskeyEntity]), ClientAuthModule, KeyEncryptionModule],
  providers: [{ provide: PasskeyRepository, useClass: TypeOrmPasskeyRepository }, WebAuthnChallenges, PasskeyCeremonies],
  exports: [PasskeyRepository, PasskeyCeremonies],
})
export class PasskeysModule {}
