import { Inject, Injectable } from '@nestjs/common';
import { OAuthError } from '../protocol/oauth-error';
import { AccessTokenExchangeHandler } from './access-token.exchange-handler';
import type { GrantContext, GrantResult, GrantValidator } from './grant-validator';
import type { TokenExchangeHandler } from './token-exchange-handler';
import { readTokenExchangeRequest, TOKEN_EXCHANGE_GRANT_TYPE, TokenExchangeParameters } from './token-exchange-request';
import { TransactionTokenExchangeHandler } from './txn-token.exchange-handler';

/**
 * RFC 8693 token exchange: reads the request (§2.1), then hands it to the handler of the
 * `requested_token_type` — an access token (delegation between APIs, docs/delegation.md) or a
 * transaction token (docs/transaction-tokens.md). A type no handler issues is `invalid_request`.
 */
@Injectable()
export class TokenExchangeGrantValidator implements GrantValidator<TokenExchangeParameters> {
  readonly grantType = TOKEN_EXCHANGE_GRANT_TYPE;
  readonly parameters = TokenExchangeParameters;
  // RFC 8693 §2.2.2: a subject token that cannot be accepted, its disabled user's included.
  readonly subjectError = 'invalid_request';
  private readonly handlers: ReadonlyMap<string, TokenExchangeHandler>;

  constructor(
    @Inject(AccessTokenExchangeHandler) accessTokens: TokenExchangeHandler,
    @Inject(TransactionTokenExchangeHandler) transactionTokens: TokenExchangeHandler,
  ) {
    this.handlers = new Map([accessTokens, transactionTokens].map((handler) => [handler.requestedTokenType, handler]));
  }

  async validate(parameters: TokenExchangeParameters, context: GrantContext): Promise<GrantResult> {
    const request = readTokenExchangeRequest(parameters);
    const handler = this.handlers.get(request.requestedTokenType);
    if (!handler) throw OAuthError.invalidRequest(`requested_token_type must be one of ${[...this.handlers.keys()].join(', ')}`);
    return handler.exchange(request, context);
  }
}
