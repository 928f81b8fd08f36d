import type { IssuedAccessToken } from '../../tokens/access-token/access-token.issuer';
import type { SelfIssuedToken } from '../../grants/grant-continuation';
import { formatScope } from '../../protocol/scope';

/** RFC 6749 §5.1 (and RFC 8693 §2.2.1) successful token response. */
export interface TokenResponse {
  readonly access_token: string;
  /** `N_A` for a token that is not an access token (RFC 8693 §2.2.1), e.g. a transaction token. */
  readonly token_type: 'Bearer' | 'DPoP' | 'N_A';
  readonly expires_in: number;
  readonly scope: string;
  readonly refresh_token?: string;
  readonly id_token?: string;
  readonly issued_token_type?: string;
  readonly [custom: string]: unknown;
}

/** The members a grant's custom response parameters never set (RFC 6749 §5.1, RFC 8693 §2.2.1, OpenID Connect Core §3.1.3.3, and §5.2's error members). */
const STANDARD_MEMBERS: ReadonlySet<string> = new Set([
  'access_token',
  'token_type',
  'expires_in',
  'scope',
  'refresh_token',
  'id_token',
  'issued_token_type',
  'error',
  'error_description',
  'error_uri',
]);

export function toTokenResponse(
  accessToken: IssuedAccessToken,
  custom: Readonly<Record<string, unknown>> = {},
  extra: { refreshToken?: string; idToken?: string; issuedTokenType?: string } = {},
): TokenResponse {
  return {
    ...customMembers(custom),
    access_token: accessToken.token,
    token_type: accessToken.tokenType,
    expires_in: accessToken.expiresIn,
    scope: formatScope(accessToken.scopes),
    ...(extra.refreshToken === undefined ? {} : { refresh_token: extra.refreshToken }),
    ...(extra.idToken === undefined ? {} : { id_token: extra.idToken }),
    ...(extra.issuedTokenType === undefined ? {} : { issued_token_type: extra.issuedTokenType }),
  };
}

/** RFC 8693 §2.2.1 for a token a grant issued itself: never a refresh token. */
export function toSelfIssuedTokenResponse(issued: SelfIssuedToken, issuedTokenType: string | undefined): TokenResponse {
  return {
    access_token: issued.token,
    token_type: issued.tokenType,
    expires_in: issued.expiresIn,
    scope: formatScope(issued.scopes),
    ...(issuedTokenType === undefined ? {} : { issued_token_type: issuedTokenType }),
  };
}

function customMembers(custom: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const members: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(custom)) if (!STANDARD_MEMBERS.has(name)) members[name] = value;
  return members;
}
