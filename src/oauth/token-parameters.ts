import { singleParameter, type FormBody } from './form';
import { OAuthError } from './oauth-error';

/** The `token` and `token_type_hint` of RFC 7662 §2.1 and RFC 7009 §2.1 requests. */
export interface TokenParameters {
  readonly token: string;
  /** Only a hint: the token is looked up among every type either way. */
  readonly tokenTypeHint?: string;
}

/**
 * `token` may be longer than other parameters (the body limit bounds it): a token too long to be
 * ours is answered as unknown (`{"active": false}`, RFC 7662 §2.2; 200, RFC 7009 §2.2), not refused.
 */
export function readTokenParameters(body: FormBody): TokenParameters {
  const token = Object.prototype.hasOwnProperty.call(body, 'token') ? body.token : undefined;
  if (token !== undefined && typeof token !== 'string') throw OAuthError.invalidRequest('parameter token must not be repeated');
  if (!token) throw OAuthError.invalidRequest('token is required');
  return { token, tokenTypeHint: singleParameter(body, 'token_type_hint') };
}
