import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { setTimeout as sleep } from 'node:timers/promises';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, requestToken, userAccessToken, type HttpResponse } from '../support/http';

/** The `delegation` extension grant (docs/endpoints.md#token-endpoint, docs/tokens.md#delegated-tokens). */
describe('POST /connect/token — delegation grant', () => {
  let server: TestServer;
  let verify: (token: string, audience?: string) => Promise<JWTPayload>;

  // A second delegating API, allowed to call api1 and api2: the next link in a chain.
  const chainClient = uniqueName('api3');
  // A front end like `frontend` whose tokens live two minutes, to show the exp cap.
  const shortFrontend = uniqueName('frontend-short');
  // A delegating API allowed offline_access, to show delegation never carries it.
  const greedyApi = uniqueName('api-greedy');

  const delegate = (clientId: string, secret: string, form: Record<string, string>): Promise<HttpResponse> =>
    requestToken(server.url, clientId, secret, { grant_type: 'delegation', ...form });

  beforeAll(async () => {
    server = await startTestServer();
    const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
    verify = async (token, audience) => (await jwtVerify(token, jwks, { issuer: ISSUER, typ: 'at+jwt', audience })).payload;
    await insertClient({ clientId: chainClient, secrets: [{ secret: 'api3-secret' }], grantTypes: ['delegation'], scopes: ['api1', 'api2'] });
    await insertClient({
      clientId: shortFrontend,
      secrets: [{ secret: 'short-secret' }],
      grantTypes: ['password'],
      scopes: ['openid', 'profile', 'api1'],
      accessTokenLifetimeSeconds: 120,
    });
    await insertClient({
      clientId: greedyApi,
      secrets: [{ secret: 'greedy-secret' }],
      grantTypes: ['delegation'],
      scopes: ['openid', 'api2', 'offline_access'],
    });
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
      const subjectToken = await userAccessToken(server.url, 'alice', 'openid api1 offline_access');
      const response = await delegate(greedyApi, 'greedy-secret', { token: subjectToken, scope: 'api2 offline_access' });
      expectTokenError(response, 400, 'invalid_scope');
    });

    it('leaves offline_access out of the default scope and issues no refresh token', async () => {
      const subjectToken = await userAccessToken(server.url, 'alice', 'openid api1 offline_access');
      const response = await delegate(greedyApi, 'greedy-secret', { token: subjectToken });
      expect(response.status).toBe(200);
      expect(response.body.scope.split(' ').sort()).toEqual(['api2', 'openid']);
      expect(response.body).not.toHaveProperty('refresh_token');
    });
  });

  describe('chains', () => {
    it('nests the earlier actor inside act when a delegated token is delegated again', async () => {
      const first = await delegate('api1', 'api1-secret', { token: await userAccessToken(server.url), scope: 'api2' });
      expect(first.status).toBe(200);
      const second = await delegate(chainClient, 'api3-secret', { token: first.body.access_token, scope: 'api1' });
      expect(second.status).toBe(200);
      expect(second.body).not.toHaveProperty('refresh_token');

      const payload = await verify(second.body.access_token, 'api1');
      expect(payload).toMatchObject({
        sub: '1',
        client_id: chainClient,
        scope: 'api1',
        amr: ['delegation'],
        act: { client_id: chainClient, act: { client_id: 'api1' } },
      });
      expect(payload.auth_time).toBe(jwtPayload(first.body.access_token).auth_time);
      expect(payload.exp).toBeLessThanOrEqual(jwtPayload(first.body.access_token).exp);
    });

    it('allows 8 actors and refuses a ninth with invalid_grant', async () => {
      let token = (await delegate('api1', 'api1-secret', { token: await userAccessToken(server.url), scope: 'api2' })).body.access_token;
      for (let depth = 2; depth <= 8; depth++) {
        const response = await delegate(chainClient, 'api3-secret', { token, scope: 'api2' });
        expect(response.status).toBe(200);
        token = response.body.access_token;
        expect(actorChain(await verify(token, 'api2'))).toEqual([...Array(depth - 1).fill(chainClient), 'api1']);
      }
      expectTokenError(await delegate(chainClient, 'api3-secret', { token, scope: 'api2' }), 400, 'invalid_grant');
    });
  });
});

/** The client ids in a token's `act` claim, outermost first. */
function actorChain(payload: JWTPayload): string[] {
  const chain: string[] = [];
  for (let act = payload.act as { client_id: string; act?: unknown } | undefined; act; act = act.act as typeof act) chain.push(act.client_id);
  return chain;
}
