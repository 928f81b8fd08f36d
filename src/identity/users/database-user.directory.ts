import { Injectable } from '@nestjs/common';
import { PasswordHasher } from './password.hasher';
import type { User } from './user';
import { UserDirectory } from './user-directory';
import { UserRepository } from './user.repository';

/** Users in Tollgate's own database; imported password hashes become scrypt at the next sign-in. */
@Injectable()
export class DatabaseUserDirectory extends UserDirectory {
  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
  ) {
    super();
  }

  findBySubjectId(subjectId: string): Promise<User | undefined> {
    return this.users.findBySubjectId(subjectId);
  }

  findByClaim(name: string, value: string): Promise<User | undefined> {
    return this.users.findByClaim(name, value);
  }

  async authenticate(username: string, password: string): Promise<User | undefined> {
    const user = await this.users.findByUsername(username);
    const passwordMatches = await this.passwords.verify(password, user?.passwordHash);
    if (!user || !passwordMatches || !user.enabled) return undefined;
    if (this.passwords.needsRehash(user.passwordHash)) {
      await this.users.setPasswordHash(user.username, await this.passwords.hash(password));
    }
    return user;
  }
}
