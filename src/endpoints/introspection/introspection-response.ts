import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import type { Client } from '../../identity/clients/client';
import { acrOf } from '../../protocol/authentication-context';
import { formatScope } from '../../protocol/scope';
import type { RefreshToken } from '../../tokens/refresh-tokens/refresh-token';
import type { ResourceCatalog } from '../../identity/resources/resource-catalog';

/** RFC 7662 §2.2 introspection response. */
export type IntrospectionResponse = { readonly active: false } | ActiveTokenIntrospection;

export interface ActiveTokenIntrospection {
  readonly active: true;
  readonly [claim: string]: unknown;
}

/** Every token that is not both valid and visible to the caller answers exactly this (docs/endpoints.md#introspection). */
export const INACTIVE: IntrospectionResponse = Object.freeze({ active: false as const });

/** docs/endpoints.md#introspection: the client the token was issued to, or one it is addressed to (docs/tokens.md#addressed-to-a-client). */
export function isAccessTokenVisibleTo(token: ValidatedAccessToken, client: Client, resources: Pick<ResourceCatalog, 'isAddressedTo'>): boolean {
  return token.clientId === client.clientId || resources.isAddressedTo(token.audiences, client.clientId);
}

export function accessTokenIntrospection(token: ValidatedAccessToken, issuer: string): ActiveTokenIntrospection {
  return withoutUndefined({
    active: true,
    iss: issuer,
    sub: token.subject,
    client_id: token.clientId,
    scope: formatScope(token.scopes),
    aud: token.audiences.length === 1 ? token.audiences[0] : [...token.audiences],
    exp: token.expiresAt,
    iat: token.issuedAt,
    jti: token.jwtId,
    // RFC 7662 §2.2: the token type of RFC 6749 §5.1; RFC 9449 §6.2: `DPoP` and `cnf` for a bound token.
    token_type: token.confirmation ? 'DPoP' : 'Bearer',
    auth_time: token.authTime,
    acr: token.acr,
    act: token.actor,
    cnf: token.confirmation ? { jkt: token.confirmation.jkt } : undefined,
  });
}

/** A refresh token is shown only to its own client (docs/endpoints.md#introspection). */
export function refreshTokenIntrospection(token: RefreshToken, issuer: string): ActiveTokenIntrospection {
  return withoutUndefined({
    active: true,
    iss: issuer,
    sub: token.subject,
    client_id: token.clientId,
    scope: formatScope(token.scopes),
    exp: epochSeconds(token.expiresAt),
    iat: epochSeconds(token.createdAt),
    auth_time: token.authTime,
    acr: acrOf(token.authenticationMethods),
  });
}

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function withoutUndefined<T extends Record<string, unknown>>(members: T): T {
  return Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined)) as T;
}
