import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AccessTokenModule } from '../access-token/access-token.module';
import { KeysModule } from '../keys/keys.module';
import { SubjectIssuersModule } from '../trusted-issuers/subject-issuers.module';
import { TransactionTokenExchangeHandler } from './txn-token.exchange-handler';
import { TransactionTokenIssuer } from './txn-token.issuer';
import { TransactionTokenValidator } from './txn-token.validator';

/** Transaction-token issuance, the `txn_token` handler of token exchange (docs/transaction-tokens.md). */
@Module({
  imports: [JwtModule.register({}), KeysModule, AccessTokenModule, SubjectIssuersModule],
  providers: [TransactionTokenIssuer, TransactionTokenValidator, TransactionTokenExchangeHandler],
  exports: [TransactionTokenExchangeHandler],
})
export class TransactionTokensModule {}
