import { singleParameter, type FormBody } from './form';
import { OAuthError } from './oauth-error';

/** The `token` and `token_type_hint` of RFC 7662 §2.1 and RFC 7009 §2.1 requests. */
export interface TokenParameters {
  readonly token: string;
  /** Only a hint: the token is looked up among every type either way. */
  readonly tokenTypeHint?: string;
}

export function readTokenParameters(body: FormBody): TokenParameters {
  const token = singleParameter(body, 'token');
  if (!token) throw OAuthError.invalidRequest('token is required');
  return { token, tokenTypeHint: singleParameter(body, 'token_type_hint') };
}
