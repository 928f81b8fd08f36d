import { OAuthError, type OAuthErrorCode } from '../../protocol/oauth-error';
import type { User } from '../../identity/users/user';

/** Where the token endpoint reads a token's user: the user store (CACHE_TTL_SECONDS), or a fake. */
export interface SubjectUsers {
  findBySubjectId(subjectId: string): Promise<User | undefined>;
}

/**
 * docs/users.md: no grant issues a token for a user who is unknown or disabled, whatever the token
 * it was derived from; `error` is the grant's own code for a subject it cannot accept.
 */
export async function requireEnabledUser(users: SubjectUsers, subject: string, error: OAuthErrorCode): Promise<void> {
  const user = await users.findBySubjectId(subject);
  if (!user?.enabled) throw new OAuthError(error, 'the user is unknown or disabled');
}
