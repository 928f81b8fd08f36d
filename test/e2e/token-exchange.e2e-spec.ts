import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { AccessTokenIssuer } from '../../src/tokens/access-token/access-token.issuer';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, request, requestToken, type HttpResponse } from '../support/http';
import { ACCESS_TOKEN_TYPE, API1, M2M, TOKEN_EXCHANGE, eventually, openIdClient, passwordTokens, type ClientCredentials } from '../support/token-lifecycle';

const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

function exchange(url: string, client: ClientCredentials, form: Record<string, string | string[]>): Promise<HttpResponse> {
  return requestToken(url, client.clientId, client.secret, { grant_type: TOKEN_EXCHANGE, ...form });
}

const subject = (token: string) => ({ subject_token: token, subject_token_type: ACCESS_TOKEN_TYPE });

/** RFC 8693 (docs/endpoints.md#token-endpoint): token exchange, the standard form of delegation. */
describe('POST /connect/token — RFC 8693 token exchange', () => {
  let server: TestServer;
  let jwks: ReturnType<typeof createRemoteJWKSet>;
  // A chain of APIs whose client ids are also API resource names, so tokens can be issued for them.
  const spa = { clientId: uniqueName('spa'), secret: 'spa-secret' };
  const relay1 = { clientId: uniqueName('relay1'), secret: 'relay1-secret' };
  const relay2 = { clientId: uniqueName('relay2'), secret: 'relay2-secret' };
  const loop = { clientId: uniqueName('loop'), secret: 'loop-secret' };
  let aliceForApi1: string;

  beforeAll(async () => {
    // Resources are reloaded every CACHE_TTL_SECONDS: 1 s lets the new APIs be seen quickly.
    server = await startTestServer({ CACHE_TTL_SECONDS: '1' });
    for (const api of [relay1, relay2, loop]) await sql('INSERT INTO api_resources (name, scopes) VALUES ($1, $2)', [api.clientId, [api.clientId]]);
    const client = (credentials: ClientCredentials, grantTypes: string[], scopes: string[], accessTokenLifetimeSeconds = 3600) =>
      insertClient({ ...credentials, secrets: [{ secret: credentials.secret }], grantTypes, scopes, accessTokenLifetimeSeconds });
    await client(spa, ['password'], ['openid', 'profile', 'api1', relay1.clientId, loop.clientId], 600);
    await client(relay1, [TOKEN_EXCHANGE, 'client_credentials'], ['openid', 'profile', 'api2', relay2.clientId, 'offline_access']);
    await client(relay2, [TOKEN_EXCHANGE], ['openid', 'api2']);
    await client(loop, [TOKEN_EXCHANGE], [loop.clientId]);
    await eventually(async () => (await request(`${server.url}/.well-known/openid-configuration`)).body.scopes_supported.includes(loop.clientId), 5000);
    jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
    aliceForApi1 = (await passwordTokens(server.url, 'openid profile api1')).access_token;
  });
  afterAll(() => server.close());

  describe('success', () => {
    it("exchanges alice's token as api1 for an api2 token: RFC 8693 §2.2.1 response, delegated claims", async () => {
      const response = await exchange(server.url, API1, { ...subject(aliceForApi1), scope: 'api2' });
      expect(response.status).toBe(200);
      expectTokenSuccessHeaders(response);
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: expect.any(Number),
        scope: 'api2',
        issued_token_type: ACCESS_TOKEN_TYPE,
      });
      const { payload, protectedHeader } = await jwtVerify(response.body.access_token, jwks, { issuer: ISSUER, audience: 'api2', typ: 'at+jwt' });
      expect(protectedHeader.alg).toBe('RS256');
      const original = jwtPayload(aliceForApi1);
      expect(payload).toMatchObject({ sub: '1', client_id: 'api1', scope: 'api2', aud: 'api2', amr: [TOKEN_EXCHANGE], act: { client_id: 'api1' } });
      expect(payload.auth_time).toBe(original.auth_time);
      expect(payload.exp).toBeLessThanOrEqual(original.exp);
    });

    it('accepts the jwt token type for an access token', async () => {
      const response = await exchange(server.url, API1, { subject_token: aliceForApi1, subject_token_type: JWT_TOKEN_TYPE, scope: 'api2' });
      expect(response.status).toBe(200);
    });

    it('defaults to the allowed scopes the subject token lets it carry: no wider identity scopes, never offline_access', async () => {
      const response = await exchange(server.url, API1, subject(aliceForApi1));
      expect(response.status).toBe(200);
      expect(response.body.scope).toBe('openid profile api2');
      expect(response.body.refresh_token).toBeUndefined();
    });

    it('never outlives the subject token', async () => {
      const short = (await passwordTokens(server.url, `openid ${relay1.clientId}`, { client: spa })).access_token;
      const response = await exchange(server.url, relay1, { ...subject(short), scope: 'api2' });
      expect(response.status).toBe(200);
      expect(jwtPayload(response.body.access_token).exp).toBe(jwtPayload(short).exp);
    });

    it('nests the subject token’s act inside the new one', async () => {
      const first = await passwordTokens(server.url, `openid ${relay1.clientId}`, { client: spa });
      const hop1 = await exchange(server.url, relay1, { ...subject(first.access_token), scope: `openid ${relay2.clientId}` });
      expect(hop1.status).toBe(200);
      const hop2 = await exchange(server.url, relay2, { ...subject(hop1.body.access_token), scope: 'api2' });
      expect(hop2.status).toBe(200);
      const { payload } = await jwtVerify(hop2.body.access_token, jwks, { issuer: ISSUER, audience: 'api2' });
      expect(payload).toMatchObject({ sub: '1', client_id: relay2.clientId, act: { client_id: relay2.clientId, act: { client_id: relay1.clientId } } });
    });

    it('API 1 → API 2 → API 3: each API exchanges the token addressed to it, and act nests the earlier actor', async () => {
      const first = await exchange(server.url, API1, { ...subject(aliceForApi1), audience: 'api2', scope: 'openid profile api2' });
      expect(first.status).toBe(200);
      const API2 = { clientId: 'api2', secret: 'api2-secret' };
      // API 2 may not exchange the token addressed to API 1, nor API 1 the one it obtained for API 2.
      expectTokenError(await exchange(server.url, API2, { ...subject(aliceForApi1), scope: 'api3' }), 400, 'invalid_request');
      expectTokenError(await exchange(server.url, API1, { ...subject(first.body.access_token), scope: 'api2' }), 400, 'invalid_request');
      const second = await exchange(server.url, API2, { ...subject(first.body.access_token), audience: 'api3', scope: 'openid profile api3' });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ scope: 'openid profile api3', issued_token_type: ACCESS_TOKEN_TYPE });
      const { payload } = await jwtVerify(second.body.access_token, jwks, { issuer: ISSUER, audience: 'api3', typ: 'at+jwt' });
      expect(payload).toMatchObject({
        sub: '1',
        aud: 'api3',
        client_id: 'api2',
        amr: [TOKEN_EXCHANGE],
        act: { client_id: 'api2', act: { client_id: 'api1' } },
        auth_time: jwtPayload(aliceForApi1).auth_time,
      });
    });

    it('allows 8 nested actors and refuses a 9th as invalid_request', async () => {
      let token = (await passwordTokens(server.url, loop.clientId, { client: spa })).access_token;
      for (let depth = 1; depth <= 8; depth++) {
        const response = await exchange(server.url, loop, { ...subject(token), scope: loop.clientId });
        expect(response.status).toBe(200);
        token = response.body.access_token;
      }
      let act = jwtPayload(token).act;
      let depth = 0;
      for (; act; act = act.act) depth++;
      expect(depth).toBe(8);
      expectTokenError(await exchange(server.url, loop, { ...subject(token), scope: loop.clientId }), 400, 'invalid_request');
    });

    it("accepts the client's own token as actor_token", async () => {
      const own = await requestToken(server.url, relay1.clientId, relay1.secret, { grant_type: 'client_credentials', scope: 'api2' });
      const aliceForRelay1 = (await passwordTokens(server.url, `openid ${relay1.clientId}`, { client: spa })).access_token;
      const response = await exchange(server.url, relay1, {
        ...subject(aliceForRelay1),
        actor_token: own.body.access_token,
        actor_token_type: ACCESS_TOKEN_TYPE,
        scope: 'api2',
      });
      expect(response.status).toBe(200);
      expect(jwtPayload(response.body.access_token).act).toEqual({ client_id: relay1.clientId });
    });

    it('lets audience and resource repeat, and limits the token to them', async () => {
      const aliceForRelay1 = (await passwordTokens(server.url, `openid profile ${relay1.clientId}`, { client: spa })).access_token;
      const response = await exchange(server.url, relay1, {
        ...subject(aliceForRelay1),
        audience: [relay2.clientId, relay2.clientId],
        resource: [relay2.clientId, relay2.clientId],
      });
      expect(response.status).toBe(200);
      expect(response.body.scope).toBe(`openid profile ${relay2.clientId}`);
      await jwtVerify(response.body.access_token, jwks, { issuer: ISSUER, audience: relay2.clientId });
      expect(jwtPayload(response.body.access_token).aud).toBe(relay2.clientId);
    });

    it('issues for two targets at once', async () => {
      const aliceForRelay1 = (await passwordTokens(server.url, `openid ${relay1.clientId}`, { client: spa })).access_token;
      const response = await exchange(server.url, relay1, {
        ...subject(aliceForRelay1),
        audience: 'api2',
        resource: relay2.clientId,
        scope: `api2 ${relay2.clientId}`,
      });
      expect(response.status).toBe(200);
      expect(jwtPayload(response.body.access_token).aud).toEqual(['api2', relay2.clientId]);
    });
  });

  describe('errors (docs/endpoints.md#token-endpoint)', () => {
    it('refuses a client not allowed the grant as unauthorized_client', async () => {
      const response = await requestToken(server.url, 'frontend', 'frontend-secret', { grant_type: TOKEN_EXCHANGE, ...subject(aliceForApi1) });
      expectTokenError(response, 400, 'unauthorized_client');
    });

    it.each<[string, Record<string, string | string[]>]>([
      ['a missing subject_token', { subject_token_type: ACCESS_TOKEN_TYPE }],
      ['an empty subject_token', { subject_token: '', subject_token_type: ACCESS_TOKEN_TYPE }],
      ['garbage as subject_token', { subject_token: 'not-a-token', subject_token_type: ACCESS_TOKEN_TYPE }],
      ['a forged subject_token', { subject_token: 'eyJhbGciOiJub25lIiwidHlwIjoiYXQrand0In0.eyJzdWIiOiIxIn0.', subject_token_type: ACCESS_TOKEN_TYPE }],
      ['a missing subject_token_type', { subject_token: 'SUBJECT' }],
      ['a refresh_token subject_token_type', { subject_token: 'SUBJECT', subject_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' }],
      ['an id_token subject_token_type', { subject_token: 'SUBJECT', subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' }],
      ['actor_token without actor_token_type', { ...subject('SUBJECT'), actor_token: 'SUBJECT' }],
      ['actor_token_type without actor_token', { ...subject('SUBJECT'), actor_token_type: ACCESS_TOKEN_TYPE }],
      ['an unsupported requested_token_type', { ...subject('SUBJECT'), requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' }],
      ['subject_token sent twice', { subject_token: ['SUBJECT', 'SUBJECT'], subject_token_type: ACCESS_TOKEN_TYPE }],
      ['subject_token_type sent twice', { subject_token: 'SUBJECT', subject_token_type: [ACCESS_TOKEN_TYPE, ACCESS_TOKEN_TYPE] }],
      ['actor_token sent twice', { ...subject('SUBJECT'), actor_token: ['SUBJECT', 'SUBJECT'], actor_token_type: ACCESS_TOKEN_TYPE }],
      ['scope sent twice', { ...subject('SUBJECT'), scope: ['api2', 'api2'] }],
      ['grant_type sent twice', { ...subject('SUBJECT'), grant_type: [TOKEN_EXCHANGE, TOKEN_EXCHANGE] }],
    ])('refuses %s as invalid_request', async (_, form) => {
      const filled = Object.fromEntries(
        Object.entries(form).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.map((v) => v.replace('SUBJECT', aliceForApi1)) : value.replace('SUBJECT', aliceForApi1),
        ]),
      );
      expectTokenError(await exchange(server.url, API1, { scope: 'api2', ...filled }), 400, 'invalid_request');
    });

    it('refuses a subject token without sub as invalid_request', async () => {
      const m2mToken = await requestToken(server.url, M2M.clientId, M2M.secret, { grant_type: 'client_credentials', scope: 'api1' });
      expect(jwtPayload(m2mToken.body.access_token).aud).toBe('api1');
      expectTokenError(await exchange(server.url, API1, { ...subject(m2mToken.body.access_token), scope: 'api2' }), 400, 'invalid_request');
    });

    it("refuses a subject token whose aud lacks the client's client_id as invalid_request", async () => {
      const notForApi1 = (await passwordTokens(server.url, 'openid profile')).access_token;
      expect(jwtPayload(notForApi1).aud).toBe(`${ISSUER}/resources`);
      expectTokenError(await exchange(server.url, API1, { ...subject(notForApi1), scope: 'api2' }), 400, 'invalid_request');
    });

    it('refuses an expired subject token as invalid_request', async () => {
      const expired = await server.app.get(AccessTokenIssuer).issue({
        clientId: 'frontend',
        lifetimeSeconds: 3600,
        scopes: ['openid', 'api1'],
        subject: '1',
        authTime: Math.floor(Date.now() / 1000) - 7200,
        authenticationMethods: ['pwd'],
        expiresAtMost: Math.floor(Date.now() / 1000) - 3600,
      });
      expectTokenError(await exchange(server.url, API1, { ...subject(expired.token), scope: 'api2' }), 400, 'invalid_request');
    });

    it("refuses another client's token as actor_token as invalid_request", async () => {
      const m2mToken = await requestToken(server.url, M2M.clientId, M2M.secret, { grant_type: 'client_credentials', scope: 'api1' });
      const form = { ...subject(aliceForApi1), actor_token: m2mToken.body.access_token, actor_token_type: ACCESS_TOKEN_TYPE, scope: 'api2' };
      expectTokenError(await exchange(server.url, API1, form), 400, 'invalid_request');
    });

    it('refuses identity scopes wider than the subject token’s as invalid_scope', async () => {
      expectTokenError(await exchange(server.url, API1, { ...subject(aliceForApi1), scope: 'role api2' }), 400, 'invalid_scope');
    });

    it('refuses offline_access as invalid_scope: token exchange never issues refresh tokens', async () => {
      const aliceForRelay1 = (await passwordTokens(server.url, `openid ${relay1.clientId}`, { client: spa })).access_token;
      expectTokenError(await exchange(server.url, relay1, { ...subject(aliceForRelay1), scope: 'api2 offline_access' }), 400, 'invalid_scope');
    });

    it.each<[string, Record<string, string | string[]>]>([
      ['an unknown audience', { audience: 'nowhere' }],
      ['an audience the client is allowed no scope of', { audience: 'api1' }],
      ['an unknown resource', { resource: 'https://nowhere.example' }],
      ['a resource the client may not target, beside one it may', { resource: ['api2', 'api1'] }],
      ['a scope outside the requested audience', { audience: 'api2', scope: 'openid' }],
    ])('refuses %s as invalid_target', async (_, form) => {
      expectTokenError(await exchange(server.url, API1, { ...subject(aliceForApi1), ...form }), 400, 'invalid_target');
    });
  });

  describe('openid-client interoperability', () => {
    it('exchanges a token with genericGrantRequest', async () => {
      const config = await openIdClient(server, API1);
      const response = await oidc.genericGrantRequest(config, TOKEN_EXCHANGE, {
        subject_token: aliceForApi1,
        subject_token_type: ACCESS_TOKEN_TYPE,
        scope: 'api2',
        audience: 'api2',
      });
      expect(response).toMatchObject({ token_type: 'bearer', scope: 'api2', issued_token_type: ACCESS_TOKEN_TYPE });
      expect(response.refresh_token).toBeUndefined();
      const { payload } = await jwtVerify(response.access_token, jwks, { issuer: ISSUER, audience: 'api2' });
      expect(payload.act).toEqual({ client_id: 'api1' });
    });
  });
});
