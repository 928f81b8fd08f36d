import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { ConfigType } from '../config/config-slice';
import { issuerConfig, verifiedTokenCacheConfig } from '../config/config.slices';
import type { PublishedKey } from '../keys/signing-key';
import { SigningKeyStore } from '../keys/signing-key.store';
import { parseJsonObject } from '../oauth/json-object';
import { OAuthError } from '../oauth/oauth-error';
import { CLOCK_SKEW_SECONDS } from '../oauth/clock-skew';
import { verifyJws } from './jws';
import { readActorClaim, readMayActClaim, type ValidatedAccessToken } from './access-token';
import { AccessTokenDenyList } from './access-token-deny-list';
import { tokenDigest, VerifiedTokenCache } from './verified-token.cache';

export const MAX_TOKEN_LENGTH = 16 * 1024;
/** The longest access-token lifetime a client can be registered with (a year); a longer-lived token is not ours. */
export const MAX_ACCESS_TOKEN_LIFETIME_SECONDS = 31_536_000;
const ACCESS_TOKEN_TYPES = new Set(['at+jwt', 'application/at+jwt']);
// Header parameters that would let the token choose its own key, or demand extensions we do not implement.
const FORBIDDEN_HEADERS = ['jwk', 'jku', 'x5u', 'x5c', 'crit', 'zip', 'enc'];
// Our key ids are RFC 7638 thumbprints (base64url); anything else cannot name a key we may not have loaded yet.
const KEY_ID = /^[\w-]{1,128}$/;

/**
 * Validates access tokens as docs/tokens.md#validation says; the one validator used by delegation, token
 * exchange, userinfo and introspection, revoked tokens included. Rejections are `invalid_token`;
 * callers translate.
 */
@Injectable()
export class AccessTokenValidator {
  private readonly verified: VerifiedTokenCache;
  private readonly isPublished = (kid: string) => this.keys.verificationKey(kid) !== undefined;

  constructor(
    private readonly jwt: JwtService,
    @Inject(SigningKeyStore) private readonly keys: Pick<SigningKeyStore, 'verificationKey' | 'verificationKeyAfterReload'>,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
    @Inject(verifiedTokenCacheConfig.KEY) cache: ConfigType<typeof verifiedTokenCacheConfig>,
    @Inject(AccessTokenDenyList) private readonly denyList: Pick<AccessTokenDenyList, 'isRevoked'>,
  ) {
    this.verified = new VerifiedTokenCache(cache.maxEntries, cache.maxAgeSeconds);
  }

  /** How often a token was found in the verified-token cache (for the metrics). */
  get cacheLookups(): { readonly hits: number; readonly misses: number } {
    return this.verified.lookups;
  }

  async validate(token: string): Promise<ValidatedAccessToken> {
    const digest = tokenDigest(token);
    const validated = this.verified.get(digest, this.isPublished) ?? (await this.verify(token, digest));
    // RFC 7009: a revoked token is refused until it expires (docs/endpoints.md#revocation), cached or not.
    if (this.denyList.isRevoked(validated.jwtId)) throw rejected('the token has been revoked');
    return validated;
  }

  private async verify(token: string, digest: string): Promise<ValidatedAccessToken> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw rejected('the token is empty or too long');
    const segments = token.split('.');
    if (segments.length !== 3) throw rejected('the token is not a compact JWS');
    const header = decodeJson(segments[0]);
    if (!header) throw rejected('the token header is not a JSON object with unique member names');
    if (typeof header.typ !== 'string' || !ACCESS_TOKEN_TYPES.has(header.typ.toLowerCase())) throw rejected('the token is not an access token (typ)');
    if (FORBIDDEN_HEADERS.some((name) => name in header)) throw rejected('the token header has parameters that are not accepted');
    // jsonwebtoken parses the payload with JSON.parse, which lets a repeated claim through.
    const claims = decodeJson(segments[1]);
    if (!claims) throw rejected('the token payload is not a JSON object with unique member names');
    const key = typeof header.kid === 'string' ? await this.publishedKey(header.kid, claims) : undefined;
    if (!key) throw rejected('the token was not signed with a published key');
    if (header.alg !== key.algorithm) throw rejected('the token algorithm is not accepted');

    let payload: unknown;
    try {
      payload = await verifyJws(this.jwt, token, key, this.config.issuer);
    } catch {
      throw rejected('the token signature, issuer or lifetime is invalid');
    }
    const validated = toValidatedToken(payload);
    requirePlausibleLifetime(validated, Math.floor(Date.now() / 1000));
    this.verified.offer(digest, validated, key.kid);
    return validated;
  }

  /** A key another instance created moments ago is loaded at once, for tokens that claim to be ours. */
  private async publishedKey(kid: string, claims: Record<string, unknown>): Promise<PublishedKey | undefined> {
    const known = this.keys.verificationKey(kid);
    if (known || !KEY_ID.test(kid) || claims.iss !== this.config.issuer) return known;
    return this.keys.verificationKeyAfterReload(kid);
  }
}

/** For `.catch`: a token that fails validation becomes undefined; a fault (database down) is passed on. */
export function undefinedIfInvalid(error: unknown): undefined {
  if (error instanceof OAuthError) return undefined;
  throw error;
}

/** A token issued in the future, or living longer than any client may be given, was not issued by us. */
function requirePlausibleLifetime({ issuedAt, expiresAt }: ValidatedAccessToken, now: number): void {
  if (issuedAt > now + CLOCK_SKEW_SECONDS) throw rejected('the token was issued in the future (iat)');
  if (expiresAt - issuedAt > MAX_ACCESS_TOKEN_LIFETIME_SECONDS || expiresAt > now + MAX_ACCESS_TOKEN_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) {
    throw rejected('the token lifetime is longer than any access token of this service');
  }
}

function rejected(description: string): OAuthError {
  return OAuthError.invalidToken(description);
}

/** A base64url segment holding a JSON object, no member named twice (RFC 7515 §5.2, RFC 7519 §7.2). */
function decodeJson(segment: string): Record<string, unknown> | undefined {
  return parseJsonObject(Buffer.from(segment, 'base64url').toString('utf8'));
}

function toValidatedToken(payload: unknown): ValidatedAccessToken {
  if (typeof payload !== 'object' || payload === null) throw rejected('the token payload is not a JSON object');
  const claims = payload as Record<string, unknown>;
  const { jti, sub, client_id: clientId, scope, aud, iat, exp, auth_time: authTime, amr, act, may_act: mayActClaim } = claims;
  const audiences = typeof aud === 'string' ? [aud] : aud;
  if (
    typeof jti !== 'string' ||
    typeof clientId !== 'string' ||
    typeof scope !== 'string' ||
    typeof iat !== 'number' ||
    typeof exp !== 'number' ||
    (sub !== undefined && typeof sub !== 'string') ||
    (representsUser(claims) && typeof sub !== 'string') ||
    !isStringArray(audiences) ||
    (authTime !== undefined && typeof authTime !== 'number') ||
    (amr !== undefined && !isStringArray(amr))
  ) {
    throw rejected('the token claims are malformed');
  }
  const actor = act === undefined ? undefined : readActorClaim(act);
  if (act !== undefined && !actor) throw rejected('the token act claim is malformed or nested too deep');
  const mayAct = mayActClaim === undefined ? undefined : readMayActClaim(mayActClaim);
  if (mayActClaim !== undefined && !mayAct) throw rejected('the token may_act claim is malformed');
  return {
    jwtId: jti,
    subject: representsUser(claims) ? sub : undefined,
    clientId,
    scopes: scope.split(' ').filter((name) => name.length > 0),
    audiences,
    issuedAt: iat,
    expiresAt: exp,
    authTime,
    authenticationMethods: amr,
    actor,
    ...(mayAct ? { mayAct } : {}),
  };
}

/** RFC 9068 §2.2: user tokens carry `auth_time` and `amr`; a token for a client alone has neither. */
function representsUser(claims: Record<string, unknown>): boolean {
  return claims.auth_time !== undefined || claims.amr !== undefined;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
