import { RecordingAuditSink } from '../platform/audit/recording-audit.sink';
import type { Client } from '../identity/clients/client';
import { DEMO_API_RESOURCES, DEMO_IDENTITY_RESOURCES } from '../demo/demo-data';
import type { RequestParameters } from '../protocol/form';
import { submit, type GrantRequest } from './grant.fixtures';
import { ResourceCatalog } from '../identity/resources/resource-catalog';
import { PasswordHasher } from '../identity/users/password.hasher';
import type { User } from '../identity/users/user';
import { DatabaseUserDirectory } from '../identity/users/database-user.directory';
import { InMemoryUserRepository } from '../identity/users/in-memory-user.repository.fixtures';
import { MemoryCounterStore } from '../platform/rate-limit/memory-counter-store';
import { SignInThrottle } from '../platform/rate-limit/sign-in.throttle';
import { PasswordCheck } from '../identity/sign-in/password-check';
import { PasswordCheckQueue } from '../identity/sign-in/password-check.queue';
import { PasswordGrantValidator } from './password.grant-validator';

class FakeUserRepository extends InMemoryUserRepository {
  readonly lookups: string[] = [];
  async findByUsername(username: string): Promise<User | undefined> {
    this.lookups.push(username);
    return super.findByUsername(username);
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
  public: false,
  redirectUris: [],
  postLogoutRedirectUris: [],
  requireConsent: false,
};

function context(parameters: RequestParameters, clientAddress = '192.0.2.1'): GrantRequest {
  return { grantType: 'password', client, parameters, scopes: { names: ['openid', 'api1', 'offline_access'], explicit: true }, resources, clientAddress };
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
  let audit: RecordingAuditSink;

  beforeAll(async () => {
    const user = (subjectId: string, username: string, enabled: boolean, passwordHash: string): User => ({
      subjectId,
      username,
      enabled,
      passwordHash,
      claims: {},
      roles: [],
      updatedAt: new Date(0),
    });
    users = new FakeUserRepository([user('1', 'alice', true, await hasher.hash('alice')), user('3', 'carol', false, await hasher.hash('carol'))]);
  });

  beforeEach(() => {
    audit = new RecordingAuditSink();
    const signIns = new SignInThrottle(new MemoryCounterStore(), {
      failuresBeforeBackOff: 3,
      backOffSeconds: 30,
      maxBackOffSeconds: 900,
      addressFailures: 50,
      addressWindowSeconds: 300,
    });
    const queue = new PasswordCheckQueue({ concurrency: 2, queueLength: 8, queueTimeoutMs: 10_000 });
    validator = new PasswordGrantValidator(new PasswordCheck(new DatabaseUserDirectory(users, hasher), hasher, signIns, queue), audit);
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

  it('issues a token for the user with amr pwd and the requested scopes (auth_time is the default, now)', async () => {
    await expect(submit(validator, context({ username: 'alice', password: 'alice' }))).resolves.toEqual({
      subject: '1',
      scopes: ['openid', 'api1', 'offline_access'],
      authenticationMethods: ['pwd'],
    });
  });

  describe('sign-in back-off', () => {
    const failThreeTimes = async (address = '192.0.2.1') => {
      for (let i = 0; i < 3; i++)
        await expect(submit(validator, context({ username: 'alice', password: `guess-${i}` }, address))).rejects.toEqual(invalidGrant);
    };

    it('refuses even the right password during back-off, with the wrong-password answer, without looking the user up', async () => {
      await failThreeTimes();
      const lookupsBefore = users.lookups.length;
      await expect(submit(validator, context({ username: 'alice', password: 'alice' }))).rejects.toEqual(invalidGrant);
      expect(users.lookups).toHaveLength(lookupsBefore);
      expect(audit.events.at(-1)).toEqual({ name: 'user.sign_in_failed', username: 'alice', clientId: 'frontend', address: '192.0.2.1', reason: 'back_off' });
    });

    it('hashes a decoy during back-off, so that the refusal costs the time of a checked password', async () => {
      await failThreeTimes();
      const verify = jest.spyOn(hasher, 'verify');
      await expect(submit(validator, context({ username: 'alice', password: 'alice' }))).rejects.toEqual(invalidGrant);
      expect(verify.mock.calls).toEqual([['alice', undefined]]);
    });

    it('does not hold back the same user from another address', async () => {
      await failThreeTimes('192.0.2.1');
      await expect(submit(validator, context({ username: 'alice', password: 'alice' }, '192.0.2.2'))).resolves.toMatchObject({ subject: '1' });
    });

    it('forgets earlier failures after a success', async () => {
      for (let i = 0; i < 2; i++) await expect(submit(validator, context({ username: 'alice', password: 'wrong' }))).rejects.toEqual(invalidGrant);
      await expect(submit(validator, context({ username: 'alice', password: 'alice' }))).resolves.toMatchObject({ subject: '1' });
      for (let i = 0; i < 2; i++) await expect(submit(validator, context({ username: 'alice', password: 'wrong' }))).rejects.toEqual(invalidGrant);
      await expect(submit(validator, context({ username: 'alice', password: 'alice' }))).resolves.toMatchObject({ subject: '1' });
    });
  });

  describe('audit', () => {
    it('names the attempted username, bounded, and never the password', async () => {
      const username = `u${'x'.repeat(900)}`;
      await expect(submit(validator, context({ username, password: 'secret-guess' }))).rejects.toEqual(invalidGrant);
      await expect(submit(validator, context({ username: 'alice', password: 'secret-guess' }))).rejects.toEqual(invalidGrant);
      expect(audit.events).toEqual([
        { name: 'user.sign_in_failed', username: username.slice(0, 256), clientId: 'frontend', address: '192.0.2.1', reason: 'invalid_credentials' },
        { name: 'user.sign_in_failed', username: 'alice', clientId: 'frontend', address: '192.0.2.1', reason: 'invalid_credentials' },
      ]);
      expect(JSON.stringify(audit.events)).not.toContain('secret-guess');
    });
  });
});
