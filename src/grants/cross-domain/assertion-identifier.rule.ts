import { OAuthError } from '../../index';

const MAX_JTI_LENGTH = 256;

/** RFC 7523 §3 item 7 made mandatory: a `jti` (a non-empty string of at most 256 characters), so a replay can be told. */
export class AssertionIdentifierRule {
  check(claims: Readonly<Record<string, unknown>>): string {
    const { jti } = claims;
    if (typeof jti !== 'string' || jti.length === 0) throw OAuthError.invalidGrant('the assertion has no jti');
    if (jti.length > MAX_JTI_LENGTH) throw OAuthError.invalidGrant(`the assertion jti is longer than ${MAX_JTI_LENGTH} characters`);
    return jti;
  }
}
