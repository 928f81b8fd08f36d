import { createRootLogger } from '../../src/platform/logging/root-logger';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { request, requestToken, type HttpResponse } from '../support/http';

const SCOPE = 'openid profile email role address phone';
const userinfo = (url: string, token: string): Promise<HttpResponse> => request(`${url}/connect/userinfo`, { headers: { authorization: `Bearer ${token}` } });

/**
 * OIDC Core §5.1 defines each standard claim's JSON type: a stored value of another type (written by
 * `users import` or straight into the database) is left out of UserInfo, and logged once per claim
 * without its value.
 */
describe('UserInfo serves standard claims only with their defined types', () => {
  const lines: string[] = [];
  let server: TestServer;
  const client = { clientId: uniqueName('claim-types'), secret: 'claim-types-secret' };

  beforeAll(async () => {
    const logger = createRootLogger('info', { write: (line: string) => void lines.push(line) });
    server = await startTestServer({ LOG_LEVEL: 'info', CACHE_TTL_SECONDS: '0' }, { logger });
    await insertClient({ clientId: client.clientId, grantTypes: ['password'], scopes: SCOPE.split(' '), secrets: [{ secret: client.secret }] });
  });
  afterAll(() => server.close());

  async function tokenOf(claims: Record<string, unknown>, roles: string[] = ['user']): Promise<{ subject: string; token: string }> {
    const username = uniqueName('typed');
    const subject = await insertUser({ username, password: 'pw', claims, roles });
    const response = await requestToken(server.url, client.clientId, client.secret, { grant_type: 'password', username, password: 'pw', scope: SCOPE });
    expect(response.status).toBe(200);
    return { subject, token: response.body.access_token };
  }

  it('leaves out name as an object, email as a number, email_verified "yes" and the like, and serves the rest', async () => {
    const { subject, token } = await tokenOf({
      name: { first: 'Mallory' },
      given_name: 'Mallory',
      family_name: ['M'],
      nickname: true,
      email: 42,
      email_verified: 'yes',
      phone_number: '+31 20 123 4567',
      phone_number_verified: 1,
      address: 'Main Street 1',
      locale: 'nl-NL',
    });
    const response = await userinfo(server.url, token);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: { sub: subject, given_name: 'Mallory', phone_number: '+31 20 123 4567', locale: 'nl-NL', updated_at: expect.any(Number), role: ['user'] },
    });
  });

  it('serves every claim of the right type: strings, booleans for *_verified, updated_at a number, address an object of strings', async () => {
    const claims = { name: 'Alice', email: 'a@example.com', email_verified: false, phone_number_verified: true, address: { country: 'NL', locality: 'Delft' } };
    const { subject, token } = await tokenOf(claims, ['admin']);
    const response = await userinfo(server.url, token);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: { sub: subject, ...claims, updated_at: expect.any(Number), role: ['admin'] },
    });
  });

  it('leaves out an address whose members are not strings', async () => {
    const { subject, token } = await tokenOf({ address: { country: 'NL', postal_code: 2611 }, name: 'Bob' });
    const response = await userinfo(server.url, token);
    expect(response.body).toEqual({ sub: subject, name: 'Bob', updated_at: expect.any(Number), role: ['user'] });
  });

  it('logs each left-out claim once, by name, never its value', async () => {
    const { token } = await tokenOf({ email: 123456789, name: { secret: 'sensitive-value-xyz' } });
    expect((await userinfo(server.url, token)).status).toBe(200);
    expect((await userinfo(server.url, token)).status).toBe(200);
    const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter(({ level, msg }) => level === 40 && /claim/.test(msg));
    for (const claim of ['name', 'email', 'nickname', 'email_verified', 'address']) {
      expect(warnings.filter(({ msg }) => msg.includes(`"${claim}"`))).toHaveLength(1);
    }
    const output = lines.join('');
    for (const value of ['sensitive-value-xyz', '123456789', 'Main Street 1', 'Mallory']) expect(output).not.toContain(value);
  });
});
