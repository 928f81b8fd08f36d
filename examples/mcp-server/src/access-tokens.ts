import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';

/** What an API of the chain checks in Tollgate's access tokens (RFC 9068): the signature, `typ`, `iss`, `exp`, and `aud`. */
export interface AccessTokenChecks {
  readonly issuer: string;
  readonly jwksUri: string;
  /** The `aud` value that makes the token this API's: its resource URI or its resource name. */
  readonly audience: string;
}

export type AccessTokenVerifier = (token: string) => Promise<JWTPayload>;

/** Keys are fetched from Tollgate's JWKS once and again when a token names an unknown `kid` (key rotation). */
export function accessTokenVerifier({ issuer, jwksUri, audience }: AccessTokenChecks): AccessTokenVerifier {
  const keys = createRemoteJWKSet(new URL(jwksUri));
  return async (token) => (await jwtVerify(token, keys, { issuer, audience, typ: 'at+jwt' })).payload;
}

/** Why a token was refused, for the `error_description` of a 401; no quotes, it goes into WWW-Authenticate as is. */
export function refusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The token has expired';
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') return 'The token is not addressed to this server';
  return 'The token is not valid';
}

/** The scopes of a token (`scope` is space-separated, RFC 9068 §2.2.3). */
export const scopesOf = (claims: JWTPayload): string[] => (typeof claims.scope === 'string' ? claims.scope.split(' ') : []);
