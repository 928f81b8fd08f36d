import type { User } from './user';

/** Where users are stored; also the DI token. */
export abstract class UserRepository {
  abstract findByUsername(username: string): Promise<User | undefined>;
  abstract findBySubjectId(subjectId: string): Promise<User | undefined>;
}
