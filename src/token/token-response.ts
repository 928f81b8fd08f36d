import type { IssuedAccessToken } from '../access-token/access-token.issuer';
import { formatScope } from '../oauth/scope';

/** RFC 6749 §5.1 (and RFC 8693 §2.2.1) successful token response. */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly scope: string;
  readonly refresh_token?: string;
  readonly issued_token_type?: string;
  readonly [custom: string]: unknown;
}

export function toTokenResponse(
  accessToken: IssuedAccessToken,
  custom: Readonly<Record<string, unknown>> = {},
  extra: { refreshToken?: string; issuedTokenType?: string } = {},
): TokenResponse {
  return {
    ...custom,
    access_token: accessToken.token,
    token_type: 'Bearer',
    expires_in: accessToken.expiresIn,
    scope: formatScope(accessToken.scopes),
    ...(extra.refreshToken === undefined ? {} : { refresh_token: extra.refreshToken }),
    ...(extra.issuedTokenType === undefined ? {} : { issued_token_type: extra.issuedTokenType }),
  };
}
