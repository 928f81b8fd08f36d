import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { OwnTokenVerifier } from '../access-token/own-token.verifier';
import { SessionsModule } from '../../identity/sessions/sessions.module';
import { KeysModule } from '../keys/keys.module';
import { IdTokenHintVerifier } from './id-token-hint.verifier';
import { IdTokenIssuer } from './id-token.issuer';
import { IdTokenValidator } from './id-token.validator';

@Module({
  imports: [JwtModule.register({}), KeysModule, SessionsModule],
  providers: [IdTokenIssuer, IdTokenHintVerifier, IdTokenValidator, OwnTokenVerifier],
  exports: [IdTokenIssuer, IdTokenHintVerifier, IdTokenValidator],
})
export class IdTokenModule {}
