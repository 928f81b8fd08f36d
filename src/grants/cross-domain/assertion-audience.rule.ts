import { OAuthError } from '../../index';

/**
 * rfc7523bis: `aud` is this authorization server's issuer identifier as its **sole** value, a string
 * or a one-element array; an assertion also addressed elsewhere could be replayed there.
 */
export class AssertionAudienceRule {
  constructor(private readonly issuer: string) {}

  check(claims: Readonly<Record<string, unknown>>): void {
    const { aud } = claims;
    const sole = Array.isArray(aud) && aud.length === 1 ? (aud[0] as unknown) : aud;
    if (sole === this.issuer) return;
    if (aud === undefined) throw OAuthError.invalidGrant('the assertion has no aud');
    if (Array.isArray(aud) && aud.includes(this.issuer)) throw OAuthError.invalidGrant('the assertion aud must name this issuer as its sole value');
    throw OAuthError.invalidGrant('the assertion aud is not this issuer');
  }
}
