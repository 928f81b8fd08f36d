import { OAuthError } from '../../index';
import { ID_JAG_TYP, type AssertionProfile } from './cross-domain';

/**
 * The header `typ` (RFC 7515 §4.1.9, compared without case): `oauth-id-jag+jwt` is an ID-JAG, absent
 * or `JWT` a plain RFC 7523 grant; anything else — an access token, an ID token's kin with another
 * media type, a logout token — is not an authorization grant (docs/chaining.md#acceptance-rules).
 */
export class AssertionTypeRule {
  profileOf(header: Readonly<Record<string, unknown>>): AssertionProfile {
    const { typ } = header;
    if (typ === undefined) return 'jwt';
    if (typeof typ !== 'string') throw OAuthError.invalidGrant('the assertion typ is not a string');
    const type = typ.toLowerCase().replace(/^application\//, '');
    if (type === ID_JAG_TYP) return 'id-jag';
    if (type === 'jwt') return 'jwt';
    throw OAuthError.invalidGrant(`an assertion of typ ${typ.slice(0, 50)} is not a JWT authorization grant`);
  }
}
