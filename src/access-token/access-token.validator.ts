import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { SigningKeyStore } from '../keys/signing-key.store';
import { OAuthError } from '../oauth/oauth-error';
import { readActorClaim, type ValidatedAccessToken } from './access-token';

export const MAX_TOKEN_LENGTH = 16 * 1024;
const CLOCK_SKEW_SECONDS = 60;
const ACCESS_TOKEN_TYPES = new Set(['at+jwt', 'application/at+jwt']);
// Header parameters that would let the token choose its own key, or demand extensions we do not implement.
const FORBIDDEN_HEADERS = ['jwk', 'jku', 'x5u', 'x5c', 'crit', 'zip', 'enc'];

/**
 * Validates access tokens as CONTRACT §3.2 says; the one validator used by delegation, token
 * exchange, userinfo and introspection. Rejections are `invalid_token`; callers translate.
 */
@Injectable()
export class AccessTokenValidator {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: SigningKeyStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async validate(token: string): Promise<ValidatedAccessToken> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw rejected('the token is empty or too long');
    const segments = token.split('.');
    if (segments.length !== 3) throw rejected('the token is not a compact JWS');
    const header = decodeJson(segments[0]);
    if (!header) throw rejected('the token header is not a JSON object');
    if (typeof header.typ !== 'string' || !ACCESS_TOKEN_TYPES.has(header.typ.toLowerCase())) throw rejected('the token is not an access token (typ)');
    if (FORBIDDEN_HEADERS.some((name) => name in header)) throw rejected('the token header has parameters that are not accepted');
    const key = typeof header.kid === 'string' ? this.keys.verificationKey(header.kid) : undefined;
    if (!key) throw rejected('the token was not signed with a published key');
    if (header.alg !== key.algorithm) throw rejected('the token algorithm is not accepted');

    let payload: unknown;
    try {
      payload = this.jwt.verify(token, {
        // jsonwebtoken takes a KeyObject; @nestjs/jwt's typings only name string and Buffer.
        publicKey: key.publicKey as unknown as Buffer,
        algorithms: [key.algorithm],
        issuer: this.config.issuer,
        clockTolerance: CLOCK_SKEW_SECONDS,
      });
    } catch {
      throw rejected('the token signature, issuer or lifetime is invalid');
    }
    return toValidatedToken(payload);
  }
}

function rejected(description: string): OAuthError {
  return OAuthError.invalidToken(description);
}

function decodeJson(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function toValidatedToken(payload: unknown): ValidatedAccessToken {
  if (typeof payload !== 'object' || payload === null) throw rejected('the token payload is not a JSON object');
  const claims = payload as Record<string, unknown>;
  const { jti, sub, client_id: clientId, scope, aud, iat, exp, auth_time: authTime, amr, act } = claims;
  const audiences = typeof aud === 'string' ? [aud] : aud;
  if (
    typeof jti !== 'string' ||
    typeof clientId !== 'string' ||
    typeof scope !== 'string' ||
    typeof iat !== 'number' ||
    typeof exp !== 'number' ||
    (sub !== undefined && typeof sub !== 'string') ||
    !isStringArray(audiences) ||
    (authTime !== undefined && typeof authTime !== 'number') ||
    (amr !== undefined && !isStringArray(amr))
  ) {
    throw rejected('the token claims are malformed');
  }
  const actor = act === undefined ? undefined : readActorClaim(act);
  if (act !== undefined && !actor) throw rejected('the token act claim is malformed or nested too deep');
  return {
    jwtId: jti,
    subject: sub,
    clientId,
    scopes: scope.split(' ').filter((name) => name.length > 0),
    audiences,
    issuedAt: iat,
    expiresAt: exp,
    authTime,
    authenticationMethods: amr,
    actor,
  };
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
