import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { KeysModule } from '../keys/keys.module';
import { IdTokenHintVerifier } from './id-token-hint.verifier';
import { IdTokenIssuer } from './id-token.issuer';

@Module({
  imports: [JwtModule.register({}), KeysModule],
  providers: [IdTokenIssuer, IdTokenHintVerifier],
  exports: [IdTokenIssuer, IdTokenHintVerifier],
})
export class IdTokenModule {}
