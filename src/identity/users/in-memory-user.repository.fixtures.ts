import type { NewUser } from './new-user';
import type { User } from './user';
import { UserRepository } from './user.repository';

/** A UserRepository over an array, for specs. */
export class InMemoryUserRepository extends UserRepository {
  readonly users: User[];

  constructor(users: readonly User[] = []) {
    super();
    this.users = [...users];
  }

  async findByUsername(username: string): Promise<User | undefined> {
    return this.users.find((user) => user.username === username);
  }

  async findBySubjectId(subjectId: string): Promise<User | undefined> {
    return this.users.find((user) => user.subjectId === subjectId);
  }

  async findByClaim(name: string, value: string): Promise<User | undefined> {
    const matching = this.users.filter((user) => user.claims[name] === value);
    return matching.length === 1 ? matching[0] : undefined;
  }

  async add(user: NewUser): Promise<boolean> {
    if (this.users.some((other) => other.username === user.username || other.subjectId === user.subjectId)) return false;
    this.users.push({ ...user, updatedAt: new Date(0) });
    return true;
  }

  setPasswordHash(username: string, passwordHash: string): Promise<boolean> {
    return this.change(username, { passwordHash });
  }

  setEnabled(username: string, enabled: boolean): Promise<boolean> {
    return this.change(username, { enabled });
  }

  private async change(username: string, change: Partial<User>): Promise<boolean> {
    const index = this.users.findIndex((user) => user.username === username);
    if (index < 0) return false;
    this.users[index] = { ...this.users[index], ...change };
    return true;
  }
}
