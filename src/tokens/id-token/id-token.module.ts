import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { OwnTokenVerifier } from '../access-token/own-token.verifier';
import { SessionsModule } from '../../identity/sessions/sessions.module';
import { KeysModule } from '../keys/keys.module';
import { IdTokenHintVerifier } from './id-token-hint.verifier';
import { IdTokenIssuer } from './id-token.issuer';

@Module({
  imports: [JwtModule.register({}), KeysModule, SessionsModule],
  providers: [IdTokenIssuer, IdTokenHintVerifier, OwnTokenVerifier],
  exports: [IdTokenIssuer, IdTokenHintVerifier],
})
export class IdTokenModule {}
