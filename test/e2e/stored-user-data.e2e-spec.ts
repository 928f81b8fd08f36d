import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { request, requestToken, type HttpResponse } from '../support/http';
import { API1, introspect, type ClientCredentials } from '../support/token-lifecycle';

const userinfo = (url: string, token: string): Promise<HttpResponse> => request(`${url}/connect/userinfo`, { headers: { authorization: `Bearer ${token}` } });

/**
 * Bad rows never become a 500: userinfo and introspection serve what is valid of a user whose
 * stored claims, roles or updated_at are malformed, and `role` is always a list of non-empty strings.
 */
describe('users with malformed stored data', () => {
  let server: TestServer;
  let client: ClientCredentials;

  beforeAll(async () => {
    server = await startTestServer({ CACHE_TTL_SECONDS: '0' });
    client = { clientId: uniqueName('bad-rows'), secret: 'bad-rows-secret' };
    await insertClient({
      clientId: client.clientId,
      grantTypes: ['password'],
      scopes: ['openid', 'profile', 'email', 'role', 'api1'],
      secrets: [{ secret: client.secret }],
    });
  });
  afterAll(() => server.close());

  /** A user signed in with the password grant, then their row broken by `update`. */
  async function brokenUser(update: string): Promise<{ subject: string; token: string }> {
    const username = uniqueName('broken');
    const subject = await insertUser({ username, password: 'pw', claims: { name: 'Broken User', email: 'broken@example.com' }, roles: ['user'] });
    const response = await requestToken(server.url, client.clientId, client.secret, {
      grant_type: 'password',
      username,
      password: 'pw',
      scope: 'openid profile email role api1',
    });
    expect(response.status).toBe(200);
    await sql(`UPDATE users SET ${update} WHERE subject_id = $1`, [subject]);
    return { subject, token: response.body.access_token };
  }

  it.each([
    ['claims JSON null', `claims = 'null'::jsonb`],
    ['claims a string', `claims = '"Broken User"'::jsonb`],
    ['claims an array', `claims = '["Broken User"]'::jsonb`],
  ])('serves sub and roles for %s, and introspection stays active', async (_, update) => {
    const { subject, token } = await brokenUser(update);
    const response = await userinfo(server.url, token);
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { sub: subject, role: ['user'], updated_at: expect.any(Number) } });
    expect((await introspect(server.url, API1, { token })).body).toMatchObject({ active: true, sub: subject });
  });

  it('leaves out an updated_at of infinity', async () => {
    const { subject, token } = await brokenUser(`updated_at = 'infinity'`);
    const response = await userinfo(server.url, token);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: { sub: subject, name: 'Broken User', email: 'broken@example.com', role: ['user'] },
    });
  });

  it('serves only the non-empty string roles of roles with nulls, nested arrays and empty strings', async () => {
    const nested = await brokenUser(`roles = '{{admin,""},{NULL,user}}'::text[]`);
    const withNulls = await brokenUser(`roles = ARRAY['admin', NULL, '', 'user']::text[]`);
    for (const { token } of [nested, withNulls]) {
      const response = await userinfo(server.url, token);
      expect(response.status).toBe(200);
      expect(response.body.role).toEqual(['admin', 'user']);
    }
    const onlyBad = await brokenUser(`roles = ARRAY[NULL, '']::text[]`);
    const response = await userinfo(server.url, onlyBad.token);
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('role');
  });
});

/**
 * RFC 9068 §2.2: a client token's `sub` is its client_id; without `auth_time` and `amr` it stays a
 * client token, even when a user has a subject id equal to that client_id.
 */
describe('a client token whose client_id equals a user subject id', () => {
  let server: TestServer;
  const clientId = uniqueName('twin');

  beforeAll(async () => {
    server = await startTestServer();
    await insertUser({ username: uniqueName('twin-user'), password: 'pw', subjectId: clientId, claims: { name: 'Twin' } });
    await insertClient({ clientId, grantTypes: ['client_credentials'], scopes: ['openid', 'profile', 'api1'], secrets: [{ secret: 'twin-secret' }] });
  });
  afterAll(() => server.close());

  it('is refused at userinfo as representing no user, and its sub is the client_id', async () => {
    const response = await requestToken(server.url, clientId, 'twin-secret', { grant_type: 'client_credentials', scope: 'api1' });
    expect(response.status).toBe(200);
    const payload = JSON.parse(Buffer.from(response.body.access_token.split('.')[1], 'base64url').toString());
    expect(payload.sub).toBe(clientId);
    const answer = await userinfo(server.url, response.body.access_token);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('is active at introspection without a user lookup, and is refused as a delegation subject', async () => {
    const { body } = await requestToken(server.url, clientId, 'twin-secret', { grant_type: 'client_credentials', scope: 'api1' });
    const introspected = await introspect(server.url, API1, { token: body.access_token });
    expect(introspected.body).toMatchObject({ active: true, client_id: clientId });
    expect(introspected.body).not.toHaveProperty('sub');
    const delegated = await requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token: body.access_token, scope: 'api2' });
    expect({ status: delegated.status, error: delegated.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
  });
});
