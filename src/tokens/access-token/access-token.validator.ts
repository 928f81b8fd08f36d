import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '../../platform/config/config-slice';
import { verifiedTokenCacheConfig } from '../../platform/config/config.slices';
import { SigningKeyStore } from '../keys/signing-key.store';
import { OAuthError } from '../../protocol/oauth-error';
import { CLOCK_SKEW_SECONDS } from '../../protocol/clock-skew';
import { readActorClaim, readConfirmationClaim, readMayActClaim, type ValidatedAccessToken } from './access-token';
import { AccessTokenDenyList } from './access-token-deny-list';
import { OwnTokenVerifier, type OwnTokenKind } from './own-token.verifier';
import { tokenDigest, VerifiedTokenCache } from './verified-token.cache';

export { MAX_TOKEN_LENGTH } from './own-token.verifier';
/** The longest access-token lifetime a client can be registered with (a year); a longer-lived token is not ours. */
export const MAX_ACCESS_TOKEN_LIFETIME_SECONDS = 31_536_000;
const ACCESS_TOKEN: OwnTokenKind = { types: new Set(['at+jwt', 'application/at+jwt']), wrongType: 'the token is not an access token (typ)' };

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
    @Inject(OwnTokenVerifier) private readonly verifier: Pick<OwnTokenVerifier, 'verify'>,
    @Inject(SigningKeyStore) private readonly keys: Pick<SigningKeyStore, 'verificationKey'>,
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
    const { claims, key } = await this.verifier.verify(token, ACCESS_TOKEN);
    const validated = toValidatedToken(claims);
    requirePlausibleLifetime(validated, Math.floor(Date.now() / 1000));
    this.verified.offer(digest, validated, key.kid);
    return validated;
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

function toValidatedToken(claims: Record<string, unknown>): ValidatedAccessToken {
  const { jti, sub, client_id: clientId, scope, aud, iat, exp, auth_time: authTime, amr, acr, act, may_act: mayActClaim, cnf } = claims;
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
    (amr !== undefined && !isStringArray(amr)) ||
    (acr !== undefined && typeof acr !== 'string')
  ) {
    throw rejected('the token claims are malformed');
  }
  const actor = act === undefined ? undefined : readActorClaim(act);
  if (act !== undefined && !actor) throw rejected('the token act claim is malformed or nested too deep');
  const mayAct = mayActClaim === undefined ? undefined : readMayActClaim(mayActClaim);
  if (mayActClaim !== undefined && !mayAct) throw rejected('the token may_act claim is malformed');
  const confirmation = cnf === undefined ? undefined : readConfirmationClaim(cnf);
  if (cnf !== undefined && !confirmation) throw rejected('the token cnf claim is malformed');
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
    acr: acr as string | undefined,
    actor,
    ...(mayAct ? { mayAct } : {}),
    ...(confirmation ? { confirmation } : {}),
  };
}

/** RFC 9068 §2.2: user tokens carry `auth_time` and `amr`; a token for a client alone has neither. */
function representsUser(claims: Record<string, unknown>): boolean {
  return claims.auth_time !== undefined || claims.amr !== undefined;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
