import { OAuthError } from '../../index';
import { CLOCK_SKEW_SECONDS } from './cross-domain';

/** OpenID Connect Core §2 `auth_time`, when the assertion carries it: epoch seconds, not in the future (60 s skew). */
export class AuthenticationTimeRule {
  constructor(private readonly now: number = Math.floor(Date.now() / 1000)) {}

  check(claims: Readonly<Record<string, unknown>>): number | undefined {
    const { auth_time: authTime } = claims;
    if (authTime === undefined) return undefined;
    if (typeof authTime !== 'number' || !Number.isInteger(authTime) || authTime < 0)
      throw OAuthError.invalidGrant('the assertion auth_time is not epoch seconds');
    if (authTime > this.now + CLOCK_SKEW_SECONDS) throw OAuthError.invalidGrant('the assertion auth_time is in the future');
    return Math.min(authTime, this.now);
  }
}
