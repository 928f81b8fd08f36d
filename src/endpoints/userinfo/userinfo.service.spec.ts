import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import { DEMO_IDENTITY_RESOURCES } from '../../demo/demo-data';
import { ResourceCatalog } from '../../identity/resources/resource-catalog';
import type { ResourceStore } from '../../identity/resources/resource.store';
import type { User } from '../../identity/users/user';
import { InMemoryUserRepository } from '../../identity/users/in-memory-user.repository.fixtures';
import { UserStore } from '../../identity/users/user.store';
import { DatabaseUserDirectory } from '../../identity/users/database-user.directory';
import { PasswordHasher } from '../../identity/users/password.hasher';
import { UserInfoService } from './userinfo.service';

class FakeUserRepository extends InMemoryUserRepository {
  readonly lookups: string[] = [];
  async findBySubjectId(subjectId: string): Promise<User | undefined> {
    this.lookups.push(subjectId);
    return super.findBySubjectId(subjectId);
  }
}

const bob: User = {
  subjectId: '2',
  username: 'bob',
  passwordHash: 'scrypt$…',
  enabled: true,
  claims: { name: 'Bob Jones', preferred_username: 'bob' },
  roles: ['user'],
  updatedAt: new Date('2026-01-01T00:00:00Z'),
};

function token(overrides: Partial<ValidatedAccessToken> = {}): ValidatedAccessToken {
  return { jwtId: 'j', subject: '2', clientId: 'frontend', scopes: ['openid'], audiences: ['api1'], issuedAt: 0, expiresAt: 1, ...overrides };
}

function service(users: readonly User[] = [bob]): { userInfo: UserInfoService; repository: FakeUserRepository } {
  const repository = new FakeUserRepository(users);
  const resources: Pick<ResourceStore, 'catalog'> = { catalog: new ResourceCatalog({ identityResources: DEMO_IDENTITY_RESOURCES, apiResources: [] }) };
  return {
    userInfo: new UserInfoService(new UserStore(new DatabaseUserDirectory(repository, new PasswordHasher()), { ttlSeconds: 0 }), resources),
    repository,
  };
}

const invalidToken = (description: string) => expect.objectContaining({ code: 'invalid_token', status: 401, description, options: {} });

describe('UserInfoService.userInfo', () => {
  it('refuses a token without sub as invalid_token, before any user query', async () => {
    const { userInfo, repository } = service();
    await expect(userInfo.userInfo(token({ subject: undefined }))).rejects.toThrow(invalidToken('the access token does not represent a user'));
    expect(repository.lookups).toEqual([]);
  });

  it('refuses a token whose user is unknown as invalid_token', async () => {
    await expect(service().userInfo.userInfo(token({ subject: '404' }))).rejects.toThrow(invalidToken('the user of the access token is unknown or disabled'));
  });

  it('refuses a disabled user as invalid_token, even when the token also lacks openid (docs/endpoints.md#userinfo order)', async () => {
    const { userInfo } = service([{ ...bob, enabled: false }]);
    await expect(userInfo.userInfo(token({ scopes: ['api1'] }))).rejects.toThrow(invalidToken('the user of the access token is unknown or disabled'));
  });

  it('refuses a user token without openid as insufficient_scope naming openid', async () => {
    await expect(service().userInfo.userInfo(token({ scopes: ['profile', 'api1'] }))).rejects.toThrow(
      expect.objectContaining({ code: 'insufficient_scope', status: 403, options: { scope: 'openid' } }),
    );
  });

  it('returns the claims of the granted scopes with one user query', async () => {
    const { userInfo, repository } = service();
    await expect(userInfo.userInfo(token({ scopes: ['openid', 'profile', 'role'] }))).resolves.toEqual({
      sub: '2',
      name: 'Bob Jones',
      preferred_username: 'bob',
      updated_at: 1767225600,
      role: ['user'],
    });
    expect(repository.lookups).toEqual(['2']);
  });
});
