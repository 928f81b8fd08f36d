import type { Client } from '../clients/client';
import { DEMO_API_RESOURCES, DEMO_IDENTITY_RESOURCES } from '../database/demo-data';
import type { RequestParameters } from '../oauth/form';
import { submit, type GrantRequest } from './grant.fixtures';
import { ResourceCatalog } from '../resources/resource-catalog';
import { PasswordHasher } from '../users/password.hasher';
import type { User } from '../users/user';
import { UserRepository } from '../users/user.repository';
import { PasswordGrantValidator } from './password.grant-validator';

class FakeUserRepository extends UserRepository {
  readonly lookups: string[] = [];
  constructor(private readonly users: readonly User[]) {
    super();
  }
  async findByUsername(username: string): Promise<User | undefined> {
    this.lookups.push(username);
    return this.users.find((user) => user.username === username);
  }
  async findBySubjectId(subjectId: string): Promise<User | undefined> {
    return this.users.find((user) => user.subjectId === subjectId);
  }
}

const resources = new ResourceCatalog({ identityResources: DEMO_IDENTITY_RESOURCES, apiResources: DEMO_API_RESOURCES });
const client: Client = {
  clientId: 'frontend',
  enabled: true,
  allowedGrantTypes: ['password'],
  allowedScopes: ['openid', 'api1', 'offline_access'],
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 86400,
  secrets: [],
};

function context(parameters: RequestParameters): GrantRequest {
  return { grantType: 'password', client, parameters, scopes: { names: ['openid', 'api1', 'offline_access'], explicit: true }, resources };
}

const invalidGrant = expect.objectContaining({
  code: 'invalid_grant',
  description: 'the username or password is incorrect, or the user is disabled',
});
const missingCredentials = expect.objectContaining({ code: 'invalid_request', description: 'username and password are required' });

describe('PasswordGrantValidator', () => {
  const hasher = new PasswordHasher();
  let users: FakeUserRepository;
  let validator: PasswordGrantValidator;

  beforeAll(async () => {
    const user = (subjectId: string, username: string, enabled: boolean, passwordHash: string): User => ({
      subjectId, username, enabled, passwordHash, claims: {}, roles: [], updatedAt: new Date(0),
    });
    users = new FakeUserRepository([
      user('1', 'alice', true, await hasher.hash('alice')),
      user('3', 'carol', false, await hasher.hash('carol')),
    ]);
    validator = new PasswordGrantValidator(users, hasher);
  });

  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['username is missing', { password: 'alice' }],
    ['username is empty', { username: '', password: 'alice' }],
    ['password is missing', { username: 'alice' }],
  ])('refuses as invalid_request when %s', async (_, parameters) => {
    await expect(submit(validator, context(parameters))).rejects.toEqual(missingCredentials);
  });

  it('refuses an over-long username or password without looking the user up', async () => {
    const long = 'x'.repeat(1025);
    const lookupsBefore = users.lookups.length;
    await expect(submit(validator, context({ username: long, password: 'alice' }))).rejects.toEqual(invalidGrant);
    await expect(submit(validator, context({ username: 'alice', password: long }))).rejects.toEqual(invalidGrant);
    expect(users.lookups).toHaveLength(lookupsBefore);
  });

  it.each([
    ['the user is unknown', 'mallory', 'alice'],
    ['the password is wrong', 'alice', 'Alice'],
    ['the user is disabled, even with the right password', 'carol', 'carol'],
  ])('refuses with one invalid_grant message when %s', async (_, username, password) => {
    await expect(submit(validator, context({ username, password }))).rejects.toEqual(invalidGrant);
  });

  it('issues a token for the user with amr pwd, auth_time now and the requested scopes', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_900_000_000_500);
    await expect(submit(validator, context({ username: 'alice', password: 'alice' }))).resolves.toEqual({
      subject: '1',
      scopes: ['openid', 'api1', 'offline_access'],
      authenticationMethods: ['pwd'],
      authTime: 1_900_000_000,
    });
  });
});
