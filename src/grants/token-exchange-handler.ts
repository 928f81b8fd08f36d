import type { GrantResult } from './grant-result';
import type { GrantContext } from './grant-validator';
import type { TokenExchangeRequest } from './token-exchange-request';

/**
 * One kind of RFC 8693 token exchange (docs/extending.md#a-token-exchange-handler): the token it
 * issues (`requestedTokenType`, §2.1 `requested_token_type`) from the subject tokens it accepts
 * (`subjectTokenType`, one or several). A grant module provides **and exports** it, as it does a
 * grant validator; the `urn:ietf:params:oauth:grant-type:token-exchange` grant dispatches each
 * request to the handler of its pair. Two handlers for one pair stop the start.
 */
export interface TokenExchangeHandler {
  readonly subjectTokenType: string | readonly string[];
  readonly requestedTokenType: string;
  exchange(request: TokenExchangeRequest, context: GrantContext): Promise<GrantResult>;
}

/** A token-exchange handler class, built by Nest from its constructor's parameter types. */
export type TokenExchangeHandlerClass = new (...dependencies: never[]) => TokenExchangeHandler;
