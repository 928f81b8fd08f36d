import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { RefreshTokenPurger } from '../../src/tokens/refresh-tokens/refresh-token.purger';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, insertUser, uniqueName } from '../support/fixtures';
import { basic, jwtPayload, requestToken, toForm, type HttpResponse } from '../support/http';
import { FRONTEND, openIdClient, passwordTokens, refresh, userinfo, type ClientCredentials } from '../support/token-lifecycle';

const FULL_SCOPE = 'openid profile api1 offline_access';

interface RefreshTokenRow {
  token_hash: string;
  family_id: string;
  subject_id: string;
  client_id: string;
  scopes: string[];
  consumed_at: Date | null;
  revoked_at: Date | null;
  expires_at: Date;
  auth_time: Date;
}

const hashOf = (handle: string) => createHash('sha256').update(handle).digest('base64url');
/** As if the token had been used up a minute ago: past the grace window for concurrent duplicates. */
const usedUpBeforeGraceWindow = (handle: string) =>
  sql(`UPDATE refresh_tokens SET consumed_at = consumed_at - interval '1 minute' WHERE token_hash = $1`, [hashOf(handle)]);
const rowOf = async (handle: string) => (await sql<RefreshTokenRow>('SELECT * FROM refresh_tokens WHERE token_hash = $1', [hashOf(handle)]))[0];

/** RFC 6749 §6 (docs/tokens.md#refresh-tokens): refresh tokens for the password grant, rotated, with reuse detection. */
describe('POST /connect/token — grant_type=refresh_token', () => {
  let server: TestServer;
  let secondClient: ClientCredentials;

  beforeAll(async () => {
    server = await startTestServer();
    secondClient = { clientId: uniqueName('spa'), secret: 'spa-secret' };
    await insertClient({
      ...secondClient,
      secrets: [{ secret: secondClient.secret }],
      grantTypes: ['password', 'refresh_token'],
      scopes: ['openid', 'api1', 'offline_access'],
    });
  });
  afterAll(() => server.close());

  describe('issuance', () => {
    it('gives no refresh token without offline_access', async () => {
      const tokens = await passwordTokens(server.url, 'openid api1');
      expect(tokens.refresh_token).toBeUndefined();
    });

    it('gives no refresh token when scope is omitted: offline_access is never implied', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username: 'alice', password: 'alice' });
      expect(response.status).toBe(200);
      expect(response.body.refresh_token).toBeUndefined();
      expect(response.body.scope.split(' ')).not.toContain('offline_access');
    });

    it('refuses offline_access to a client without it as invalid_scope', async () => {
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1 offline_access' });
      expectTokenError(response, 400, 'invalid_scope');
    });

    it('gives an opaque, high-entropy refresh token with offline_access, stored only as its SHA-256', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', {
        grant_type: 'password',
        username: 'alice',
        password: 'alice',
        scope: FULL_SCOPE,
      });
      expect(response.status).toBe(200);
      expectTokenSuccessHeaders(response);
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: FULL_SCOPE,
        refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      const handle: string = response.body.refresh_token;
      const row = await rowOf(handle);
      expect(row).toMatchObject({ subject_id: '1', client_id: 'frontend', scopes: FULL_SCOPE.split(' '), consumed_at: null, revoked_at: null });
      const everything = JSON.stringify(await sql('SELECT * FROM refresh_tokens'));
      expect(everything).not.toContain(handle);
      // Absolute lifetime: the client's refresh_token_lifetime (30 days by default).
      expect(row.expires_at.getTime() - Date.now()).toBeGreaterThan(2_592_000_000 - 60_000);
      expect(row.expires_at.getTime() - Date.now()).toBeLessThanOrEqual(2_592_000_000);
    });
  });

  describe('invalid requests', () => {
    it('refuses a missing refresh_token as invalid_request', async () => {
      expectTokenError(await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'refresh_token' }), 400, 'invalid_request');
    });

    it('refuses refresh_token sent twice as invalid_request', async () => {
      const { refresh_token: handle } = await passwordTokens(server.url, FULL_SCOPE);
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: 'refresh_token', refresh_token: [handle!, handle!] });
      expectTokenError(response, 400, 'invalid_request');
      expect((await rowOf(handle!)).consumed_at).toBeNull();
    });

    it.each([
      ['an unknown handle', 'A'.repeat(43)],
      ['garbage', 'not a refresh token'],
      ['an access token', 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln'],
    ])('refuses %s as invalid_grant', async (_, handle) => {
      expectTokenError(await refresh(server.url, handle), 400, 'invalid_grant');
    });

    it('refuses a client not allowed the grant as unauthorized_client', async () => {
      const { refresh_token: handle } = await passwordTokens(server.url, FULL_SCOPE);
      const response = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'refresh_token', refresh_token: handle! });
      expectTokenError(response, 400, 'unauthorized_client');
    });

    it('refuses an expired refresh token as invalid_grant', async () => {
      const { refresh_token: handle } = await passwordTokens(server.url, FULL_SCOPE);
      await sql(`UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hashOf(handle!)]);
      expectTokenError(await refresh(server.url, handle!), 400, 'invalid_grant');
    });
  });

  describe('rotation', () => {
    it('answers with a new access token and a new refresh token, and the old one is consumed', async () => {
      const first = await passwordTokens(server.url, FULL_SCOPE);
      const response = await refresh(server.url, first.refresh_token!);
      expect(response.status).toBe(200);
      expectTokenSuccessHeaders(response);
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: FULL_SCOPE,
        refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect(response.body.refresh_token).not.toBe(first.refresh_token);

      const [before, after] = [await rowOf(first.refresh_token!), await rowOf(response.body.refresh_token)];
      expect(before.consumed_at).toBeInstanceOf(Date);
      expect(after).toMatchObject({ family_id: before.family_id, consumed_at: null, revoked_at: null, scopes: before.scopes });
      // The family's lifetime is absolute: rotation never extends it.
      expect(after.expires_at).toEqual(before.expires_at);

      const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
      const { payload } = await jwtVerify(response.body.access_token, jwks, { issuer: ISSUER, audience: 'api1', typ: 'at+jwt' });
      const original = jwtPayload(first.access_token);
      expect(payload).toMatchObject({ sub: '1', client_id: 'frontend', scope: FULL_SCOPE, amr: ['pwd'], auth_time: original.auth_time });
      expect(payload.jti).not.toBe(original.jti);
      expect(payload.act).toBeUndefined();
    });

    it('keeps rotating: every successor works once', async () => {
      let handle = (await passwordTokens(server.url, FULL_SCOPE)).refresh_token!;
      for (let round = 0; round < 3; round++) {
        const response = await refresh(server.url, handle);
        expect(response.status).toBe(200);
        handle = response.body.refresh_token;
      }
      const family = (await rowOf(handle)).family_id;
      expect(await sql('SELECT count(*)::int AS n FROM refresh_tokens WHERE family_id = $1', [family])).toEqual([{ n: 4 }]);
    });
  });

  describe('reuse detection', () => {
    it('answers a consumed token with invalid_grant and revokes the whole family, the newest token and its access token included', async () => {
      const first = await passwordTokens(server.url, FULL_SCOPE);
      const second = await refresh(server.url, first.refresh_token!);
      expect(second.status).toBe(200);
      expect((await userinfo(server.url, second.body.access_token)).status).toBe(200);

      await usedUpBeforeGraceWindow(first.refresh_token!);
      expectTokenError(await refresh(server.url, first.refresh_token!), 400, 'invalid_grant');
      expectTokenError(await refresh(server.url, second.body.refresh_token), 400, 'invalid_grant');
      const family = (await rowOf(first.refresh_token!)).family_id;
      const rows = await sql<RefreshTokenRow>('SELECT * FROM refresh_tokens WHERE family_id = $1', [family]);
      expect(rows.map((row) => row.revoked_at)).toEqual([expect.any(Date), expect.any(Date)]);
      // RFC 7009 §2.1: the access tokens issued with the family's refresh tokens go too.
      expect((await userinfo(server.url, second.body.access_token)).status).toBe(401);
    });

    it('lets exactly one of concurrent uses of one token through, with tokens that stay valid', async () => {
      const { refresh_token: handle } = await passwordTokens(server.url, FULL_SCOPE);
      const responses = await concurrentRefreshes(server.url, handle!, 5);
      const succeeded = responses.filter((response) => response.status === 200);
      expect(succeeded.length).toBe(1);
      for (const response of responses) if (response.status !== 200) expectTokenError(response, 400, 'invalid_grant');
      // The winner's tokens were not revoked by the losers: its access token works, its refresh token rotates.
      expect((await userinfo(server.url, succeeded[0].body.access_token)).status).toBe(200);
      expect((await refresh(server.url, succeeded[0].body.refresh_token)).status).toBe(200);
      // The presented token is still used up: a replay after the grace window is reuse, and revokes the family.
      await usedUpBeforeGraceWindow(handle!);
      expectTokenError(await refresh(server.url, handle!), 400, 'invalid_grant');
      expect((await userinfo(server.url, succeeded[0].body.access_token)).status).toBe(401);
    });
  });

  describe('client binding', () => {
    it("refuses another client's refresh token as invalid_grant and leaves it usable by its own client", async () => {
      const { refresh_token: handle } = await passwordTokens(server.url, FULL_SCOPE);
      expectTokenError(await refresh(server.url, handle!, {}, secondClient), 400, 'invalid_grant');
      expect((await rowOf(handle!)).consumed_at).toBeNull();
      expect((await refresh(server.url, handle!)).status).toBe(200);
    });
  });

  describe('scope', () => {
    it('may narrow: the access token gets the narrower scope, the rotated refresh token keeps the original', async () => {
      const { refresh_token: handle } = await passwordTokens(server.url, FULL_SCOPE);
      const narrowed = await refresh(server.url, handle!, { scope: 'api1' });
      expect(narrowed.status).toBe(200);
      expect(narrowed.body.scope).toBe('api1');
      expect(jwtPayload(narrowed.body.access_token).scope).toBe('api1');
      expect(narrowed.body.refresh_token).toEqual(expect.any(String));

      const restored = await refresh(server.url, narrowed.body.refresh_token);
      expect(restored.status).toBe(200);
      expect(restored.body.scope).toBe(FULL_SCOPE);
    });

    it('may not widen: a scope the refresh token lacks is invalid_scope, and the token stays usable', async () => {
      const { refresh_token: handle } = await passwordTokens(server.url, 'openid api1 offline_access');
      expectTokenError(await refresh(server.url, handle!, { scope: 'openid email' }), 400, 'invalid_scope');
      expect((await rowOf(handle!)).consumed_at).toBeNull();
      expect((await refresh(server.url, handle!)).body.scope).toBe('openid api1 offline_access');
    });

    it('refuses a scope the client is not allowed as invalid_scope', async () => {
      const { refresh_token: handle } = await passwordTokens(server.url, FULL_SCOPE);
      expectTokenError(await refresh(server.url, handle!, { scope: 'api2' }), 400, 'invalid_scope');
    });
  });

  describe('user state', () => {
    it('stops working when the user is disabled', async () => {
      const username = uniqueName('carol');
      const subject = await insertUser({ username, password: 'carol-password' });
      const { refresh_token: handle } = await passwordTokens(server.url, FULL_SCOPE, { username, password: 'carol-password' });
      expect(handle).toEqual(expect.any(String));
      await sql('UPDATE users SET enabled = false WHERE subject_id = $1', [subject]);
      expectTokenError(await refresh(server.url, handle!), 400, 'invalid_grant');
      await sql('UPDATE users SET enabled = true WHERE subject_id = $1', [subject]);
      // Refused, not consumed: it works again once the user is re-enabled.
      expect((await refresh(server.url, handle!)).status).toBe(200);
    });
  });

  describe('lifetime and purge', () => {
    it("takes the lifetime from the client's refresh_token_lifetime", async () => {
      const client = { clientId: uniqueName('short'), secret: 'short-secret' };
      await insertClient({ ...client, secrets: [{ secret: client.secret }], grantTypes: ['password', 'refresh_token'], scopes: ['api1', 'offline_access'] });
      await sql('UPDATE clients SET refresh_token_lifetime = 120 WHERE client_id = $1', [client.clientId]);
      const { refresh_token: handle } = await passwordTokens(server.url, 'api1 offline_access', { client });
      const remaining = (await rowOf(handle!)).expires_at.getTime() - Date.now();
      expect(remaining).toBeGreaterThan(60_000);
      expect(remaining).toBeLessThanOrEqual(120_000);
    });

    it('purges tokens expired over a day ago, and only those', async () => {
      const [old, recent, live] = await Promise.all([1, 2, 3].map(() => passwordTokens(server.url, FULL_SCOPE)));
      await sql(`UPDATE refresh_tokens SET expires_at = now() - interval '2 days' WHERE token_hash = $1`, [hashOf(old.refresh_token!)]);
      await sql(`UPDATE refresh_tokens SET expires_at = now() - interval '1 hour' WHERE token_hash = $1`, [hashOf(recent.refresh_token!)]);
      expect(await server.app.get(RefreshTokenPurger).purge()).toBeGreaterThanOrEqual(1);
      expect(await rowOf(old.refresh_token!)).toBeUndefined();
      expect(await rowOf(recent.refresh_token!)).toBeDefined();
      expect(await rowOf(live.refresh_token!)).toBeDefined();
    });
  });

  describe('openid-client interoperability', () => {
    it('refreshes with refreshTokenGrant and rotates', async () => {
      const config = await openIdClient(server, FRONTEND);
      const first = await oidc.genericGrantRequest(config, 'password', { username: 'bob', password: 'bob', scope: 'openid api1 offline_access' });
      expect(first.refresh_token).toEqual(expect.any(String));
      const refreshed = await oidc.refreshTokenGrant(config, first.refresh_token!);
      expect(refreshed).toMatchObject({ token_type: 'bearer', scope: 'openid api1 offline_access', expires_in: 3600 });
      expect(refreshed.refresh_token).not.toBe(first.refresh_token);
      expect(refreshed.claims()).toBeUndefined();
      await expect(oidc.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    });
  });
});

/**
 * `count` uses of one refresh token that reach the server together: every request's headers are
 * sent (the server notes its arrival) before any body is, so none can finish before the others arrive.
 */
async function concurrentRefreshes(url: string, handle: string, count: number): Promise<HttpResponse[]> {
  const body = toForm({ grant_type: 'refresh_token', refresh_token: handle });
  const requests = Array.from({ length: count }, () => {
    const req = httpRequest(`${url}/connect/token`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: basic(FRONTEND.clientId, FRONTEND.secret),
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.flushHeaders();
    const response = new Promise<HttpResponse>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: new Headers(Object.entries(res.headers).map(([name, value]) => [name, String(value)])),
            body: JSON.parse(text),
          }),
        );
      });
    });
    return { req, response };
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const { req } of requests) req.end(body);
  return Promise.all(requests.map(({ response }) => response));
}
