import bcrypt from 'bcryptjs';
import { DatabaseUserDirectory } from './database-user.directory';
import { InMemoryUserRepository } from './in-memory-user.repository.fixtures';
import { PasswordHasher } from './password.hasher';
import type { User } from './user';

describe('DatabaseUserDirectory', () => {
  const hasher = new PasswordHasher();
  const user = (username: string, passwordHash: string, enabled = true): User => ({
    subjectId: `sub-${username}`,
    username,
    passwordHash,
    enabled,
    claims: {},
    roles: [],
    updatedAt: new Date(0),
  });
  let repository: InMemoryUserRepository;
  let directory: DatabaseUserDirectory;

  beforeEach(async () => {
    repository = new InMemoryUserRepository([
      user('carol', await hasher.hash('carol-password')),
      user('dave', bcrypt.hashSync('dave-password', 4)),
      user('erin', await hasher.hash('erin-password'), false),
      user('frank', ''),
    ]);
    directory = new DatabaseUserDirectory(repository, hasher);
  });

  describe('authenticate', () => {
    it.each([
      ['an unknown user', 'nobody', 'carol-password'],
      ['a wrong password', 'carol', 'Carol-password'],
      ['a disabled user with the right password', 'erin', 'erin-password'],
      ['a user without a password', 'frank', ''],
    ])('refuses %s', async (_, username, password) => {
      await expect(directory.authenticate(username, password)).resolves.toBeUndefined();
    });

    it('accepts the right password and keeps a current hash', async () => {
      const before = repository.users[0].passwordHash;
      await expect(directory.authenticate('carol', 'carol-password')).resolves.toMatchObject({ subjectId: 'sub-carol' });
      expect(repository.users[0].passwordHash).toBe(before);
    });

    it('replaces an imported hash with scrypt once the password is known', async () => {
      await expect(directory.authenticate('dave', 'wrong')).resolves.toBeUndefined();
      expect(repository.users[1].passwordHash.startsWith('$2b$')).toBe(true);
      await expect(directory.authenticate('dave', 'dave-password')).resolves.toMatchObject({ subjectId: 'sub-dave' });
      expect(repository.users[1].passwordHash.startsWith('scrypt$')).toBe(true);
      await expect(directory.authenticate('dave', 'dave-password')).resolves.toMatchObject({ subjectId: 'sub-dave' });
    });
  });
});
