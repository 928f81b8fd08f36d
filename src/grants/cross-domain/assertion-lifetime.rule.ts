import { OAuthError } from '../../index';
import { CLOCK_SKEW_SECONDS } from './cross-domain';

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * RFC 7523 §3 items 4–6 with the issuer's maximum: `exp` in the future, `iat` present and at most
 * 60 s in the future, `exp − iat` within the issuer's maximum lifetime, and `nbf`, when present,
 * reached (60 s skew). Returns `exp`.
 */
export class AssertionLifetimeRule {
  constructor(
    private readonly maxLifetimeSeconds: number,
    private readonly now: number = Math.floor(Date.now() / 1000),
  ) {}

  check(claims: Readonly<Record<string, unknown>>): number {
    const { exp, iat, nbf } = claims;
    if (!isTime(exp)) throw OAuthError.invalidGrant('the assertion has no exp');
    if (exp <= this.now - CLOCK_SKEW_SECONDS) throw OAuthError.invalidGrant('the assertion has expired (exp)');
    if (!isTime(iat)) throw OAuthError.invalidGrant('the assertion has no iat');
    if (iat > this.now + CLOCK_SKEW_SECONDS) throw OAuthError.invalidGrant('the assertion was issued in the future (iat)');
    if (exp <= iat) throw OAuthError.invalidGrant('the assertion expires before it was issued (exp, iat)');
    if (exp - iat > this.maxLifetimeSeconds) {
      throw OAuthError.invalidGrant(`the assertion lives longer than its issuer's maximum of ${this.maxLifetimeSeconds} s (exp - iat)`);
    }
    if (nbf !== undefined && (!isTime(nbf) || nbf > this.now + CLOCK_SKEW_SECONDS)) throw OAuthError.invalidGrant('the assertion is not valid yet (nbf)');
    return exp;
  }
}
