import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { OwnTokenVerifier } from '../access-token/own-token.verifier';
import { KeysModule } from '../keys/keys.module';
import { TransactionTokenIssuer } from './txn-token.issuer';
import { TransactionTokenValidator } from './txn-token.validator';

/** Transaction tokens: issuing and validating them (docs/transaction-tokens.md); token exchange hands them out. */
@Module({
  imports: [JwtModule.register({}), KeysModule],
  providers: [TransactionTokenIssuer, TransactionTokenValidator, OwnTokenVerifier],
  exports: [TransactionTokenIssuer, TransactionTokenValidator],
})
export class TransactionTokensModule {}
