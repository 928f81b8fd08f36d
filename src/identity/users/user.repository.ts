import type { NewUser } from './new-user';
import type { User } from './user';

/** Where Tollgate's own users are stored; also the DI token. */
export abstract class UserRepository {
  abstract findByUsername(username: string): Promise<User | undefined>;
  abstract findBySubjectId(subjectId: string): Promise<User | undefined>;
  /** The one user whose claim `name` is `value` (e.g. `email`), for subject tokens of trusted issuers; undefined when none or several. */
  abstract findByClaim(name: string, value: string): Promise<User | undefined>;
  /** False when the username or `sub` is taken; nothing is changed then. */
  abstract add(user: NewUser): Promise<boolean>;
  /** False when there is no such user. */
  abstract setPasswordHash(username: string, passwordHash: string): Promise<boolean>;
  /** False when there is no such user. */
  abstract setEnabled(username: string, enabled: boolean): Promise<boolean>;
}
