import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { setTimeout as sleep } from 'node:timers/promises';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, request, requestToken, userAccessToken, type HttpResponse } from '../support/http';
import { eventually } from '../support/token-lifecycle';

/** The `delegation` extension grant (docs/endpoints.md#token-endpoint, docs/tokens.md#delegated-tokens). */
describe('POST /connect/token — delegation grant', () => {
  let server: TestServer;
  let verify: (token: string, audience?: string) => Promise<JWTPayload>;

  // A delegating API that serves its own resource, so its output can be delegated again: a chain of any length.
  const chainClient = uniqueName('api-chain');
  const chainResource = uniqueName('chain-resource');
  // A front end like `frontend` whose tokens live two minutes, to show the exp cap.
  const shortFrontend = uniqueName('frontend-short');
  // A delegating API allowed offline_access, to show delegation never carries it.
  const greedyApi = uniqueName('api-greedy');
  const greedyResource = uniqueName('greedy-resource');

  const delegate = (clientId: string, secret: string, form: Record<string, string>): Promise<HttpResponse> =>
    requestToken(server.url, clientId, secret, { grant_type: 'delegation', ...form });
  const shortToken = async (scope: string): Promise<string> =>
    (await requestToken(server.url, shortFrontend, 'short-secret', { grant_type: 'password', username: 'alice', password: 'alice', scope })).body.access_token;

  beforeAll(async () => {
    // Resources are reloaded every CACHE_TTL_SECONDS: 1 s lets the spec's own resources be seen quickly.
    server = await startTestServer({ CACHE_TTL_SECONDS: '1' });
    // The spec's own resources, each served by one of its APIs.
    for (const [name, servedBy] of [
      [chainResource, chainClient],
      [greedyResource, greedyApi],
    ]) {
      await sql('INSERT INTO api_resources (name, scopes, serving_client_id) VALUES ($1, $2, $3)', [name, [name], servedBy]);
    }
    await insertClient({ clientId: chainClient, secrets: [{ secret: 'chain-secret' }], grantTypes: ['delegation'], scopes: ['api1', chainResource] });
    await insertClient({
      clientId: shortFrontend,
      secrets: [{ secret: 'short-secret' }],
      grantTypes: ['password'],
      scopes: ['openid', 'profile', 'api1', chainResource, greedyResource],
      accessTokenLifetimeSeconds: 120,
    });
    await insertClient({
      clientId: greedyApi,
      secrets: [{ secret: 'greedy-secret' }],
      grantTypes: ['delegation'],
      scopes: ['openid', 'api2', 'offline_access'],
    });
    const scopesSupported = async () => (await request(`${server.url}/.well-known/openid-configuration`)).body.scopes_supported as string[];
    await eventually(async () => (await scopesSupported()).includes(greedyResource), 5000);
    const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
    verify = async (token, audience) => (await jwtVerify(token, jwks, { issuer: ISSUER, typ: 'at+jwt', audience })).payload;
  });
  afterAll(() => server.close());

  describe('invalid_grant', () => {
    it('refuses a request without token', async () => {
      expectTokenError(await delegate('api1', 'api1-secret', { scope: 'api2' }), 400, 'invalid_grant');
    });

    it('refuses an empty token', async () => {
      expectTokenError(await delegate('api1', 'api1-secret', { token: '', scope: 'api2' }), 400, 'invalid_grant');
    });

    it.each([
      ['a random string', 'not-a-token'],
      ['three garbage segments', 'abc.def.ghi'],
      ['a token cut short', 'eyJhbGciOiJSUzI1NiJ9.e30'],
    ])('refuses %s', async (_, token) => {
      expectTokenError(await delegate('api1', 'api1-secret', { token, scope: 'api2' }), 400, 'invalid_grant');
    });

    it('refuses a client_credentials token, which has no sub', async () => {
      const m2m = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
      expect(m2m.status).toBe(200);
      const response = await delegate('api1', 'api1-secret', { token: m2m.body.access_token, scope: 'api2' });
      expectTokenError(response, 400, 'invalid_grant');
    });

    it('refuses a token not addressed to the client (aud), which the API it is addressed to may delegate', async () => {
      const forApi1 = await userAccessToken(server.url, 'alice', 'openid profile api1');
      const refused = await delegate('api2', 'api2-secret', { token: forApi1, scope: 'api3' });
      expectTokenError(refused, 400, 'invalid_grant');
      expect(refused.body.error_description).toBe('the subject token is not addressed to this client (aud)');
      const control = await delegate('api1', 'api1-secret', { token: forApi1, scope: 'api2' });
      expect(control.status).toBe(200);
      expect(await verify(control.body.access_token, 'api2')).toMatchObject({ sub: '1', act: { client_id: 'api1' } });
    });

    it('refuses a token addressed to no API at all', async () => {
      const identityOnly = await userAccessToken(server.url, 'alice', 'openid profile');
      expect(jwtPayload(identityOnly).aud).toBe(`${ISSUER}/resources`);
      expectTokenError(await delegate('api1', 'api1-secret', { token: identityOnly, scope: 'api2' }), 400, 'invalid_grant');
    });

    it('refuses token sent twice as invalid_request', async () => {
      const subjectToken = await userAccessToken(server.url);
      const response = await requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token: [subjectToken, subjectToken], scope: 'api2' });
      expectTokenError(response, 400, 'invalid_request');
    });
  });

  describe('success', () => {
    it("issues a token for the subject token's user that names the exchanging client as actor", async () => {
      const subjectToken = await userAccessToken(server.url, 'alice', 'openid profile api1');
      const response = await delegate('api1', 'api1-secret', { token: subjectToken, scope: 'api2' });
      expect(response.status).toBe(200);
      expectTokenSuccessHeaders(response);
      expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: expect.any(Number), scope: 'api2' });

      const subject = jwtPayload(subjectToken);
      const payload = await verify(response.body.access_token, 'api2');
      expect(payload).toEqual({
        iss: ISSUER,
        sub: '1',
        aud: 'api2',
        client_id: 'api1',
        scope: 'api2',
        amr: ['delegation'],
        act: { client_id: 'api1' },
        auth_time: subject.auth_time,
        acr: 'pwd',
        iat: expect.any(Number),
        exp: expect.any(Number),
        jti: expect.any(String),
      });
      expect(payload.jti).not.toBe(subject.jti);
      expect(payload.exp).toBeLessThanOrEqual(subject.exp);
      expect(response.body.expires_in).toBe((payload.exp as number) - (payload.iat as number));
    });

    it("delegates bob's token as bob", async () => {
      const subjectToken = await userAccessToken(server.url, 'bob', 'openid api1');
      const response = await delegate('api1', 'api1-secret', { token: subjectToken, scope: 'api2' });
      expect(response.status).toBe(200);
      expect(await verify(response.body.access_token, 'api2')).toMatchObject({ sub: '2', act: { client_id: 'api1' } });
    });

    it('never outlives the subject token and keeps its auth_time', async () => {
      const login = await requestToken(server.url, shortFrontend, 'short-secret', {
        grant_type: 'password',
        username: 'alice',
        password: 'alice',
        scope: 'openid api1',
      });
      expect(login.status).toBe(200);
      const subject = await verify(login.body.access_token, 'api1');
      expect(subject.exp).toBe((subject.iat as number) + 120);
      // Let the clock move past the subject token's second, so "kept" cannot be mistaken for "now".
      await sleep(1100);

      const response = await delegate('api1', 'api1-secret', { token: login.body.access_token, scope: 'api2' });
      expect(response.status).toBe(200);
      const payload = await verify(response.body.access_token, 'api2');
      expect(payload.exp).toBe(subject.exp);
      expect(payload.iat).toBeGreaterThan(subject.iat as number);
      expect(payload.auth_time).toBe(subject.auth_time);
      expect(response.body.expires_in).toBe((subject.exp as number) - (payload.iat as number));
      expect(response.body.expires_in).toBeLessThan(120);
    });
  });

  describe('scopes', () => {
    it('allows an identity scope the subject token had', async () => {
      const subjectToken = await userAccessToken(server.url, 'alice', 'openid api1');
      const response = await delegate('api1', 'api1-secret', { token: subjectToken, scope: 'openid api2' });
      expect(response.status).toBe(200);
      expect(response.body.scope).toBe('openid api2');
      expect(await verify(response.body.access_token, 'api2')).toMatchObject({ scope: 'openid api2', aud: 'api2' });
    });

    it('refuses an identity scope the subject token lacked with invalid_scope', async () => {
      const subjectToken = await userAccessToken(server.url, 'alice', 'openid api1');
      const response = await delegate('api1', 'api1-secret', { token: subjectToken, scope: 'profile api2' });
      expectTokenError(response, 400, 'invalid_scope');
    });

    it("defaults to the client's scopes without the identity scopes the subject token lacked", async () => {
      const subjectToken = await userAccessToken(server.url, 'alice', 'openid api1');
      const response = await delegate('api1', 'api1-secret', { token: subjectToken });
      expect(response.status).toBe(200);
      expect(response.body.scope.split(' ').sort()).toEqual(['api2', 'openid']);
      expect(await verify(response.body.access_token, 'api2')).toMatchObject({ aud: 'api2' });
    });

    it('refuses a scope the delegating client is not allowed, even one the subject token had', async () => {
      const subjectToken = await userAccessToken(server.url, 'alice', 'openid email api1');
      const response = await delegate('api1', 'api1-secret', { token: subjectToken, scope: 'email api2' });
      expectTokenError(response, 400, 'invalid_scope');
    });

    it('refuses offline_access: delegated tokens never come with a refresh token', async () => {
      const subjectToken = await shortToken(`openid ${greedyResource}`);
      const response = await delegate(greedyApi, 'greedy-secret', { token: subjectToken, scope: 'api2 offline_access' });
      expectTokenError(response, 400, 'invalid_scope');
    });

    it('leaves offline_access out of the default scope and issues no refresh token', async () => {
      const subjectToken = await shortToken(`openid ${greedyResource}`);
      const response = await delegate(greedyApi, 'greedy-secret', { token: subjectToken });
      expect(response.status).toBe(200);
      expect(response.body.scope.split(' ').sort()).toEqual(['api2', 'openid']);
      expect(response.body).not.toHaveProperty('refresh_token');
    });
  });

  describe('chains', () => {
    it('API 1 → API 2 → API 3: each API delegates the token addressed to it, and act nests the earlier actor', async () => {
      const user = await userAccessToken(server.url, 'alice', 'openid profile api1');
      const first = await delegate('api1', 'api1-secret', { token: user, scope: 'openid profile api2' });
      expect(first.status).toBe(200);
      // API 1's token for API 2 is API 2's to delegate, not API 1's.
      expectTokenError(await delegate('api1', 'api1-secret', { token: first.body.access_token, scope: 'api2' }), 400, 'invalid_grant');
      const second = await delegate('api2', 'api2-secret', { token: first.body.access_token, scope: 'openid profile api3' });
      expect(second.status).toBe(200);
      expect(second.body).not.toHaveProperty('refresh_token');

      const payload = await verify(second.body.access_token, 'api3');
      expect(payload).toEqual({
        iss: ISSUER,
        sub: '1',
        aud: 'api3',
        client_id: 'api2',
        scope: 'openid profile api3',
        amr: ['delegation'],
        act: { client_id: 'api2', act: { client_id: 'api1' } },
        auth_time: jwtPayload(user).auth_time,
        acr: 'pwd',
        iat: expect.any(Number),
        exp: expect.any(Number),
        jti: expect.any(String),
      });
      expect(payload.exp).toBeLessThanOrEqual(jwtPayload(first.body.access_token).exp);
    });

    it('allows 8 actors and refuses a ninth with invalid_grant', async () => {
      let token = await shortToken(chainResource);
      for (let depth = 1; depth <= 8; depth++) {
        const response = await delegate(chainClient, 'chain-secret', { token, scope: chainResource });
        expect(response.status).toBe(200);
        token = response.body.access_token;
        expect(actorChain(await verify(token, chainResource))).toEqual(Array(depth).fill(chainClient));
      }
      expectTokenError(await delegate(chainClient, 'chain-secret', { token, scope: chainResource }), 400, 'invalid_grant');
    });
  });
});

/** The client ids in a token's `act` claim, outermost first. */
function actorChain(payload: JWTPayload): string[] {
  const chain: string[] = [];
  for (let act = payload.act as { client_id: string; act?: unknown } | undefined; act; act = act.act as typeof act) chain.push(act.client_id);
  return chain;
}
