import { Readable } from 'node:stream';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, insertUser, uniqueName } from '../support/fixtures';
import { basic, postForm, request, requestToken, toForm } from '../support/http';

/** docs/endpoints.md#token-endpoint: every row of the token endpoint's error table, then the success shape. */
describe('POST /connect/token — errors and response shape', () => {
  let server: TestServer;
  let tokenUrl: string;
  const m2m = basic('m2m', 'm2m-secret');

  beforeAll(async () => {
    server = await startTestServer();
    tokenUrl = `${server.url}/connect/token`;
  });
  afterAll(() => server.close());

  describe('other methods', () => {
    it.each(['GET', 'HEAD', 'PUT', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
      const response = await request(`${tokenUrl}?grant_type=client_credentials`, { method, headers: { authorization: m2m } });
      expect({ status: response.status, allow: response.headers.get('allow') }).toEqual({ status: 405, allow: 'POST' });
      if (method !== 'HEAD') expect(response.body).toEqual({ error: 'invalid_request', error_description: 'the token endpoint accepts POST only' });
    });
  });

  describe('invalid_request', () => {
    it('refuses a request without grant_type', async () => {
      expectTokenError(await postForm(tokenUrl, { scope: 'api1' }, { authorization: m2m }), 400, 'invalid_request');
    });

    it('refuses an empty grant_type', async () => {
      expectTokenError(await postForm(tokenUrl, { grant_type: '' }, { authorization: m2m }), 400, 'invalid_request');
    });

    it('refuses grant_type sent twice', async () => {
      const response = await postForm(tokenUrl, { grant_type: ['client_credentials', 'client_credentials'] }, { authorization: m2m });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses scope sent twice', async () => {
      const response = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: ['api1', 'api2'] }, { authorization: m2m });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses a grant parameter sent twice', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', {
        grant_type: 'password',
        username: ['alice', 'alice'],
        password: 'alice',
      });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses client_id sent twice with client_secret_post', async () => {
      const response = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: ['m2m', 'm2m'], client_secret: 'm2m-secret' });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses a JSON body', async () => {
      const response = await request(tokenUrl, {
        method: 'POST',
        headers: { authorization: m2m, 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials' }),
      });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses a text/plain body, even one that reads like a form', async () => {
      const response = await request(tokenUrl, {
        method: 'POST',
        headers: { authorization: m2m, 'content-type': 'text/plain' },
        body: 'grant_type=client_credentials',
      });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses a multipart/form-data body', async () => {
      const form = new FormData();
      form.append('grant_type', 'client_credentials');
      const response = await request(tokenUrl, { method: 'POST', headers: { authorization: m2m }, body: form });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses a request with no body at all', async () => {
      const response = await request(tokenUrl, { method: 'POST', headers: { authorization: m2m } });
      expectTokenError(response, 400, 'invalid_request');
    });

    it('refuses a body over 64 KiB', async () => {
      const response = await postForm(tokenUrl, { grant_type: 'client_credentials', padding: 'x'.repeat(65 * 1024) }, { authorization: m2m });
      expect([400, 413]).toContain(response.status);
      expectTokenError(response, response.status, 'invalid_request');
    });

    it('refuses a body over 64 KiB sent chunked, without Content-Length', async () => {
      const body = toForm({ grant_type: 'client_credentials', padding: 'x'.repeat(65 * 1024) });
      const response = await request(tokenUrl, {
        method: 'POST',
        headers: { authorization: m2m, 'content-type': 'application/x-www-form-urlencoded' },
        body: Readable.toWeb(Readable.from([body.slice(0, 1000), body.slice(1000)])) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      expect([400, 413]).toContain(response.status);
      expectTokenError(response, response.status, 'invalid_request');
    });

    it('refuses client_secret_basic and client_secret_post together', async () => {
      const response = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: 'm2m', client_secret: 'm2m-secret' }, { authorization: m2m });
      expectTokenError(response, 400, 'invalid_request');
    });
  });

  describe('invalid_client', () => {
    it('refuses an unknown client authenticating with Basic, with a Basic challenge', async () => {
      const response = await requestToken(server.url, uniqueName('nobody'), 'secret', { grant_type: 'client_credentials' });
      expectTokenError(response, 401, 'invalid_client', { basicChallenge: true });
    });

    it('refuses an unknown client authenticating in the body, without a challenge', async () => {
      const response = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: uniqueName('nobody'), client_secret: 'secret' });
      expectTokenError(response, 401, 'invalid_client');
    });

    it('refuses a wrong secret with Basic, with a Basic challenge', async () => {
      const response = await requestToken(server.url, 'm2m', 'not-the-secret', { grant_type: 'client_credentials' });
      expectTokenError(response, 401, 'invalid_client', { basicChallenge: true });
    });

    it('refuses a wrong secret in the body, without a challenge', async () => {
      const response = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: 'm2m', client_secret: 'not-the-secret' });
      expectTokenError(response, 401, 'invalid_client');
    });

    it('refuses a disabled client with its right secret', async () => {
      const clientId = uniqueName('disabled');
      await insertClient({ clientId, enabled: false, secrets: [{ secret: 'disabled-secret' }], grantTypes: ['client_credentials'], scopes: ['api1'] });
      const response = await requestToken(server.url, clientId, 'disabled-secret', { grant_type: 'client_credentials' });
      expectTokenError(response, 401, 'invalid_client', { basicChallenge: true });
    });

    it("refuses an expired secret while the same client's unexpired secret works", async () => {
      const clientId = uniqueName('expiring');
      await insertClient({
        clientId,
        secrets: [
          { secret: 'expired-secret', expiresAt: new Date(Date.now() - 60_000) },
          { secret: 'current-secret', expiresAt: new Date(Date.now() + 3_600_000) },
        ],
        grantTypes: ['client_credentials'],
        scopes: ['api1'],
      });
      const expired = await requestToken(server.url, clientId, 'expired-secret', { grant_type: 'client_credentials' });
      expectTokenError(expired, 401, 'invalid_client', { basicChallenge: true });
      const current = await requestToken(server.url, clientId, 'current-secret', { grant_type: 'client_credentials' });
      expect(current.status).toBe(200);
    });

    it('refuses a request with no client credentials, naming the Basic scheme (RFC 7235 §3.1)', async () => {
      expectTokenError(await postForm(tokenUrl, { grant_type: 'client_credentials' }), 401, 'invalid_client', { basicChallenge: true });
    });

    it('refuses a client_id in the body without a secret', async () => {
      expectTokenError(await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: 'm2m' }), 401, 'invalid_client', { basicChallenge: true });
    });
  });

  describe('unsupported_grant_type and unauthorized_client', () => {
    it('refuses a grant_type no validator handles', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'urn:example:no-such-grant' });
      expectTokenError(response, 400, 'unsupported_grant_type');
    });

    it('refuses the authorization_code grant to a client not registered for it', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'authorization_code', code: 'x' });
      expectTokenError(response, 400, 'unauthorized_client');
    });

    it('refuses a grant_type the client is not allowed', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'password', username: 'alice', password: 'alice' });
      expectTokenError(response, 400, 'unauthorized_client');
    });

    it('refuses delegation to a client not allowed it', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'delegation', token: 'x' });
      expectTokenError(response, 400, 'unauthorized_client');
    });
  });

  describe('invalid_scope', () => {
    it('refuses an unknown scope', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1 no-such-scope' });
      expectTokenError(response, 400, 'invalid_scope');
    });

    it('refuses a known scope the client is not allowed', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1 openid' });
      expectTokenError(response, 400, 'invalid_scope');
    });

    it('refuses a scope with characters RFC 6749 §3.3 does not allow', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1 "api2"' });
      expectTokenError(response, 400, 'invalid_scope');
    });

    describe('for a client_credentials client allowed offline_access and openid', () => {
      const clientId = uniqueName('cc-wide');
      beforeAll(() =>
        insertClient({ clientId, secrets: [{ secret: 'wide-secret' }], grantTypes: ['client_credentials'], scopes: ['api1', 'openid', 'offline_access'] }),
      );

      it('refuses offline_access, which client_credentials cannot carry', async () => {
        const response = await requestToken(server.url, clientId, 'wide-secret', { grant_type: 'client_credentials', scope: 'api1 offline_access' });
        expectTokenError(response, 400, 'invalid_scope');
      });

      it('refuses an identity scope, which needs a user', async () => {
        const response = await requestToken(server.url, clientId, 'wide-secret', { grant_type: 'client_credentials', scope: 'api1 openid' });
        expectTokenError(response, 400, 'invalid_scope');
      });

      it('leaves both out of the default scope', async () => {
        const response = await requestToken(server.url, clientId, 'wide-secret', { grant_type: 'client_credentials' });
        expect(response.status).toBe(200);
        expect(response.body.scope).toBe('api1');
        expect(response.body).not.toHaveProperty('refresh_token');
      });
    });
  });

  describe('invalid_grant for the password grant', () => {
    const username = uniqueName('carol');
    const disabledUsername = uniqueName('dave');
    beforeAll(async () => {
      await insertUser({ username, password: 'carol-password' });
      await insertUser({ username: disabledUsername, password: 'dave-password', enabled: false });
    });

    it('refuses a wrong password', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username: 'alice', password: 'wrong' });
      expectTokenError(response, 400, 'invalid_grant');
    });

    it('refuses an unknown username', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username: uniqueName('nobody'), password: 'x' });
      expectTokenError(response, 400, 'invalid_grant');
    });

    it('refuses a disabled user with the right password', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', {
        grant_type: 'password',
        username: disabledUsername,
        password: 'dave-password',
      });
      expectTokenError(response, 400, 'invalid_grant');
    });

    it('gives the same answer for a wrong password, an unknown user and a disabled user', async () => {
      const answers = await Promise.all(
        [
          { username, password: 'wrong' },
          { username: uniqueName('nobody'), password: 'carol-password' },
          { username: disabledUsername, password: 'dave-password' },
        ].map(async (credentials) => (await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'password', ...credentials })).body),
      );
      expect(new Set(answers.map((body) => JSON.stringify(body))).size).toBe(1);
    });

    it('issues a token to an enabled user created the same way', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', {
        grant_type: 'password',
        username,
        password: 'carol-password',
        scope: 'openid',
      });
      expect(response.status).toBe(200);
    });
  });

  describe('request parameters', () => {
    it('ignores parameters the grant does not know', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', {
        grant_type: 'client_credentials',
        scope: 'api1',
        username: 'alice',
        token: 'x',
        foo: 'bar',
        // `resource` is RFC 8707's for this grant now (resource-indicators.e2e-spec.ts); `audience` is not.
        audience: 'https://elsewhere.example',
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'api1' });
    });

    it('defaults scope to every allowed scope the grant can carry, without offline_access', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username: 'alice', password: 'alice' });
      expect(response.status).toBe(200);
      expect(response.body.scope.split(' ').sort()).toEqual(['api1', 'email', 'openid', 'profile', 'role']);
      expect(response.body).not.toHaveProperty('refresh_token');
    });

    it("defaults scope for client_credentials to the client's API scopes", async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials' });
      expect(response.status).toBe(200);
      expect(response.body.scope.split(' ').sort()).toEqual(['api1', 'api2']);
    });
  });

  describe('success', () => {
    const verify = (token: string, audience: string) =>
      jwtVerify(token, createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`)), { issuer: ISSUER, audience, typ: 'at+jwt' });

    it('answers client_credentials with a Bearer token whose sub is the client_id, without auth_time, amr or nbf (RFC 9068 §2.2)', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
      expect(response.status).toBe(200);
      expectTokenSuccessHeaders(response);
      expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'api1' });

      const { payload, protectedHeader } = await verify(response.body.access_token, 'api1');
      expect(protectedHeader).toEqual({ alg: 'RS256', typ: 'at+jwt', kid: expect.any(String) });
      expect(payload).toEqual({
        iss: ISSUER,
        aud: 'api1',
        client_id: 'm2m',
        sub: 'm2m',
        scope: 'api1',
        iat: expect.any(Number),
        exp: (payload.iat as number) + 3600,
        jti: expect.any(String),
      });
    });

    it('answers the password grant with a token for the user', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', {
        grant_type: 'password',
        username: 'alice',
        password: 'alice',
        scope: 'openid profile api1',
      });
      expect(response.status).toBe(200);
      expectTokenSuccessHeaders(response);
      expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'openid profile api1' });

      const { payload } = await verify(response.body.access_token, 'api1');
      expect(payload).toEqual({
        iss: ISSUER,
        sub: '1',
        aud: 'api1',
        client_id: 'frontend',
        scope: 'openid profile api1',
        iat: expect.any(Number),
        exp: (payload.iat as number) + 3600,
        jti: expect.any(String),
        auth_time: expect.any(Number),
        amr: ['pwd'],
        acr: 'pwd',
      });
      expect(Math.abs((payload.auth_time as number) - (payload.iat as number))).toBeLessThanOrEqual(1);
    });

    it('gives a token with identity scopes only the issuer as audience', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', {
        grant_type: 'password',
        username: 'bob',
        password: 'bob',
        scope: 'openid',
      });
      expect(response.status).toBe(200);
      const { payload } = await verify(response.body.access_token, `${ISSUER}/resources`);
      expect(payload).toMatchObject({ sub: '2', aud: `${ISSUER}/resources`, scope: 'openid' });
    });
  });
});
