import type { GrantContext, GrantResult } from './grant-validator';
import type { TokenExchangeRequest } from './token-exchange-request';

/**
 * One kind of token that RFC 8693 token exchange issues, chosen by `requested_token_type` (§2.1),
 * the way the token endpoint chooses a grant validator by `grant_type`.
 */
export interface TokenExchangeHandler {
  readonly requestedTokenType: string;
  exchange(request: TokenExchangeRequest, context: GrantContext): Promise<GrantResult>;
}
