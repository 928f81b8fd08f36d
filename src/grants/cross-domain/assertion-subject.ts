import { OAuthError, type User, type UserDirectory } from '../../index';

const MAX_CLAIM_LENGTH = 1000;

/**
 * RFC 7523 §3 item 2: the assertion's subject, mapped to an enabled local user by its issuer's rule
 * (docs/chaining.md#authorization-grant-issuers): `sub` is the user's `sub` here, or another claim (e.g. `email`)
 * is compared with the users' claim of that name and must match exactly one.
 */
export class AssertionSubject {
  constructor(private readonly users: Pick<UserDirectory, 'findBySubjectId' | 'findByClaim'>) {}

  async userOf(claims: Readonly<Record<string, unknown>>, userClaim: string): Promise<User> {
    if (typeof claims.sub !== 'string' || claims.sub.length === 0) throw OAuthError.invalidGrant('the assertion has no sub');
    const value = claims[userClaim];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_CLAIM_LENGTH) {
      throw OAuthError.invalidGrant(`the assertion has no ${userClaim.slice(0, 100)} to map its subject by`);
    }
    const user = userClaim === 'sub' ? await this.users.findBySubjectId(value) : await this.users.findByClaim(userClaim, value);
    if (!user) throw OAuthError.invalidGrant(`no local user matches the assertion's ${userClaim.slice(0, 100)}`);
    if (!user.enabled) throw OAuthError.invalidGrant("the assertion's user is disabled");
    return user;
  }
}
