import { Injectable } from '@nestjs/common';
import { jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { isCanonicalCompactJws } from '../../protocol/compact-jws';

/** Asymmetric algorithms accepted on JWTs from others: never `none`, never HMAC (RFC 8725 §3.1–3.2). */
export const FOREIGN_JWT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
export const FOREIGN_JWT_CLOCK_SKEW_SECONDS = 60;
const MAX_JWT_LENGTH = 16 * 1024;

export interface ForeignJwtExpectations {
  /** The exact `iss`, when the issuer names itself in its tokens. */
  readonly issuer?: string;
  readonly subject?: string;
  /** `aud` must contain at least one of these. */
  readonly audience: readonly string[];
  readonly requiredClaims?: readonly string[];
}

/** A foreign JWT that failed verification; `reason` names the check, never the token. */
export class ForeignJwtRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Verifies a JWT signed by someone else (a client, a workload issuer, a subject issuer) with `jose`:
 * canonical base64url, signature by a key the resolver gives, algorithm allow-list, `iss`, `sub`, `aud`, and `exp` /
 * `nbf` / `iat` within the clock skew. `exp` is always required.
 */
@Injectable()
export class ForeignJwtVerifier {
  async verify(token: string, keys: JWTVerifyGetKey, expected: ForeignJwtExpectations): Promise<JWTPayload> {
    if (token.length === 0 || token.length > MAX_JWT_LENGTH) throw new ForeignJwtRejected('the JWT is empty or too long');
    // RFC 7515 §2: jose decodes leniently, so a signature respelled in its spare bits would still verify.
    if (!isCanonicalCompactJws(token)) throw new ForeignJwtRejected('the JWT is not a compact JWS in canonical base64url');
    try {
      const { payload } = await jwtVerify(token, keys, {
        algorithms: [...FOREIGN_JWT_ALGORITHMS],
        issuer: expected.issuer,
        subject: expected.subject,
        audience: [...expected.audience],
        clockTolerance: FOREIGN_JWT_CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp', ...(expected.requiredClaims ?? [])],
      });
      const now = Math.floor(Date.now() / 1000);
      // jose checks iat only against maxTokenAge; a token "issued" in the future is refused too.
      if (payload.iat !== undefined && payload.iat > now + FOREIGN_JWT_CLOCK_SKEW_SECONDS) throw new ForeignJwtRejected('"iat" is in the future');
      return payload;
    } catch (error) {
      if (error instanceof ForeignJwtRejected) throw error;
      throw new ForeignJwtRejected(describe(error));
    }
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'the JWT has expired';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'the signature does not verify';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'the algorithm is not allowed';
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'no registered key matches the JWT';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return `claim ${String((error as { claim?: unknown }).claim)} is not acceptable`;
    default:
      return 'the JWT is malformed or cannot be verified';
  }
}
