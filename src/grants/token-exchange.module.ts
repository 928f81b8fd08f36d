import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../tokens/access-token/access-token.module';
import { SubjectIssuersModule } from '../tokens/subject-tokens/subject-issuers.module';
import { TransactionTokensModule } from '../tokens/txn-tokens/txn-tokens.module';
import { AccessTokenExchangeHandler } from './access-token.exchange-handler';
import { TransactionTokenExchangeHandler } from './txn-token.exchange-handler';

/** The handlers RFC 8693 token exchange dispatches to by `requested_token_type`. */
@Module({
  imports: [AccessTokenModule, SubjectIssuersModule, TransactionTokensModule],
  providers: [AccessTokenExchangeHandler, TransactionTokenExchangeHandler],
  exports: [AccessTokenExchangeHandler, TransactionTokenExchangeHandler],
})
export class TokenExchangeModule {}
