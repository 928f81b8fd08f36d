import { createHash, randomBytes } from 'node:crypto';

export const REFRESH_TOKEN_GRANT_TYPE = 'refresh_token';

/** A stored refresh token (RFC 6749 §1.5), found by the hash of its handle. */
export interface RefreshToken {
  readonly tokenHash: string;
  /** Every token rotated from one grant shares it (RFC 9700 §4.14.2). */
  readonly familyId: string;
  readonly subject: string;
  readonly clientId: string;
  /** The scope originally granted; a rotated token keeps it (RFC 6749 §6). */
  readonly scopes: readonly string[];
  /** RFC 8707: the resource URIs originally authorized, the audience of a refresh without `resource`; empty when none. */
  readonly resources: readonly string[];
  /** The claims the grant added to the first access token: every refreshed one carries them again. */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** The `aud` the grant named for the first access token (not by RFC 8707 `resource`); a refresh never widens it. */
  readonly audience?: readonly string[];
  /** Epoch seconds of the user's authentication, kept by every refreshed access token. */
  readonly authTime: number;
  readonly authenticationMethods: readonly string[];
  /** The sign-in session (`sid`) of a family that began with the authorization code flow. */
  readonly sessionId?: string;
  /** RFC 9449 §5: a public client's family is bound to the DPoP key it was issued for; every refresh proves that key. */
  readonly confirmation?: { readonly jkt: string };
  readonly createdAt: Date;
  /** Absolute: the same for every token of the family. */
  readonly expiresAt: Date;
  readonly consumedAt?: Date;
  readonly revokedAt?: Date;
}

/** The access token issued together with a refresh token, revoked with its family (RFC 7009 §2.1). */
export interface CompanionAccessToken {
  readonly jwtId: string;
  /** Epoch seconds. */
  readonly expiresAt: number;
}

export interface NewRefreshToken extends Omit<RefreshToken, 'consumedAt' | 'revokedAt'> {
  readonly accessToken: CompanionAccessToken;
}

/** What a rotated refresh token inherits from the one it replaces. */
export interface RefreshTokenFamily {
  readonly id: string;
  readonly scopes: readonly string[];
  readonly resources: readonly string[];
  readonly claims?: Readonly<Record<string, unknown>>;
  readonly audience?: readonly string[];
  readonly expiresAt: Date;
  /** The hash of the token this rotation consumes, in the same transaction that stores its successor. */
  readonly rotatedFrom?: string;
  /** RFC 9449 §5: the DPoP key the family is bound to. */
  readonly confirmation?: { readonly jkt: string };
}

/** How a rotation ended: `consumed` when another request used the token first. */
export type RotationOutcome = 'rotated' | 'consumed' | 'revoked';

export type RefreshTokenState = 'active' | 'consumed' | 'revoked' | 'expired';

// 32 random bytes, base64url without padding.
const HANDLE = /^[A-Za-z0-9_-]{43}$/;

/** A new opaque handle with 256 bits of entropy (RFC 6749 §10.10). */
export function generateRefreshTokenHandle(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a handle: SHA-256, base64url. The handle itself is never stored. */
export function hashRefreshTokenHandle(handle: string): string {
  return createHash('sha256').update(handle, 'utf8').digest('base64url');
}

/** True for a string shaped like a handle this service issues; a JWT never is. */
export function isRefreshTokenHandle(value: string): boolean {
  return HANDLE.test(value);
}

/**
 * docs/tokens.md#refresh-tokens: how long after a token was used up another use of it is taken for a
 * concurrent duplicate (the client sent it twice, or retried) rather than reuse by someone else.
 */
export const CONCURRENT_USE_GRACE_MS = 5_000;

/**
 * A used-up token presented by a request that arrived before, or within the grace window after, the
 * use that consumed it: it loses the race, and revokes nothing (RFC 9700 §4.14.2 still applies after).
 */
export function isConcurrentUse(token: Pick<RefreshToken, 'consumedAt'>, receivedAt: number): boolean {
  return token.consumedAt !== undefined && receivedAt < token.consumedAt.getTime() + CONCURRENT_USE_GRACE_MS;
}

export function refreshTokenState(token: RefreshToken, now: Date): RefreshTokenState {
  if (token.revokedAt) return 'revoked';
  if (token.consumedAt) return 'consumed';
  return token.expiresAt.getTime() > now.getTime() ? 'active' : 'expired';
}
