import type { User } from './user';

/**
 * The users Tollgate signs in and serves claims of. The built-in directory keeps them in
 * PostgreSQL; an embedding application may supply its own (`AppOptions.userDirectory`, docs/users.md),
 * e.g. one backed by LDAP or an existing user service.
 */
export abstract class UserDirectory {
  /** The user with this `sub`, enabled or not; undefined when there is none. */
  abstract findBySubjectId(subjectId: string): Promise<User | undefined>;
  /**
   * The user these credentials belong to, when the password is right and the user is enabled;
   * undefined otherwise, without saying which check failed.
   */
  abstract authenticate(username: string, password: string): Promise<User | undefined>;
  /**
   * The one user, enabled or not, whose claim `name` is the string `value` (e.g. `email`): how the
   * subject of a trusted identity provider's token becomes a local user (docs/delegation.md#matching-the-external-subject).
   * Undefined when no user or several have it.
   */
  abstract findByClaim(name: string, value: string): Promise<User | undefined>;
}
