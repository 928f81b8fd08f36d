import { Inject, Injectable } from '@nestjs/common';
import { OAuthError } from '../protocol/oauth-error';
import type { GrantResult, GrantSuccess } from './grant-result';
import type { GrantContext, GrantValidator } from './grant-validator';
import { TokenExchangeHandlers } from './token-exchange-handlers';
import { readTokenExchangeRequest, TOKEN_EXCHANGE_GRANT_TYPE, TokenExchangeParameters } from './token-exchange-request';

/**
 * RFC 8693 token exchange: reads the request (§2.1), then hands it to the handler of its
 * `requested_token_type` and `subject_token_type` — the handlers every grant module exports
 * (an access token, docs/delegation.md; a transaction token, docs/transaction-tokens.md; yours,
 * docs/extending.md#a-token-exchange-handler). A pair no handler exchanges is `invalid_request`.
 */
@Injectable()
export class TokenExchangeGrantValidator implements GrantValidator<TokenExchangeParameters> {
  readonly grantType = TOKEN_EXCHANGE_GRANT_TYPE;
  readonly parameters = TokenExchangeParameters;
  // RFC 8693 §2.2.2: a subject token that cannot be accepted, its disabled user's included.
  readonly subjectError = 'invalid_request';

  constructor(@Inject(TokenExchangeHandlers) private readonly handlers: Pick<TokenExchangeHandlers, 'forRequestedType' | 'requestedTokenTypes'>) {}

  async validate(parameters: TokenExchangeParameters, context: GrantContext): Promise<GrantResult> {
    const request = readTokenExchangeRequest(parameters);
    const bySubjectType = this.handlers.forRequestedType(request.requestedTokenType);
    if (!bySubjectType) throw OAuthError.invalidRequest(`requested_token_type must be one of ${this.handlers.requestedTokenTypes().join(', ')}`);
    const handler = bySubjectType.get(request.subjectTokenType);
    if (!handler) {
      throw OAuthError.invalidRequest(
        `subject_token_type ${request.subjectTokenType.slice(0, 200)} cannot be exchanged for ${request.requestedTokenType}; it must be one of ${[...bySubjectType.keys()].join(', ')}`,
      );
    }
    const result = await handler.exchange(request, context);
    // RFC 8693 §2.2.1: the response names the type issued; by default the one requested.
    if (isPlainSuccess(result)) return { ...result, issuedTokenType: result.delegation?.issuedTokenType ?? request.requestedTokenType };
    return result;
  }
}

/** A handler's success without a continuation, to which the issued type can be added; anything else is checked as it is. */
function isPlainSuccess(result: unknown): result is GrantSuccess {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return false;
  const { kind, continuation, issuedTokenType } = result as GrantSuccess;
  return (kind === undefined || kind === 'success') && continuation === undefined && issuedTokenType === undefined;
}
