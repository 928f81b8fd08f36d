import * as oidc from 'openid-client';
import { AccessTokenIssuer } from '../../src/tokens/access-token/access-token.issuer';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, insertUser, uniqueName } from '../support/fixtures';
import { basic, jwtPayload, postForm, request, requestToken, type HttpResponse } from '../support/http';
import {
  ACCESS_TOKEN_TYPE,
  API1,
  FRONTEND,
  M2M,
  TOKEN_EXCHANGE,
  eventually,
  introspect,
  openIdClient,
  passwordTokens,
  refresh,
  revoke,
} from '../support/token-lifecycle';

const INACTIVE = { active: false };

function expectIntrospection(response: HttpResponse, body: unknown): void {
  expect({ status: response.status, body: response.body }).toEqual({ status: 200, body });
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  expect(response.headers.get('cache-control')).toBe('no-store');
}

/** RFC 7662 (docs/endpoints.md#introspection). */
describe('POST /connect/introspect', () => {
  let server: TestServer;
  let alice: { access_token: string; refresh_token?: string };

  beforeAll(async () => {
    // Users read afresh on every request, so a disabled user's tokens turn inactive at once here.
    server = await startTestServer({ CACHE_TTL_SECONDS: '0' });
    alice = await passwordTokens(server.url, 'openid profile api1 offline_access');
  });
  afterAll(() => server.close());

  describe('request errors', () => {
    it('refuses a caller without client authentication as 401 invalid_client', async () => {
      const response = await postForm(`${server.url}/connect/introspect`, { token: alice.access_token });
      expectTokenError(response, 401, 'invalid_client', { basicChallenge: true });
    });

    it('refuses a wrong client secret as 401 invalid_client with a Basic challenge', async () => {
      const response = await postForm(`${server.url}/connect/introspect`, { token: alice.access_token }, { authorization: basic('api1', 'wrong') });
      expectTokenError(response, 401, 'invalid_client', { basicChallenge: true });
    });

    it.each<[string, Record<string, string | string[]>]>([
      ['a missing token', {}],
      ['an empty token', { token: '' }],
      ['token sent twice', { token: ['a', 'b'] }],
    ])('refuses %s as invalid_request', async (_, form) => {
      expectTokenError(await introspect(server.url, API1, form), 400, 'invalid_request');
    });

    it('refuses a JSON body as invalid_request', async () => {
      const response = await request(`${server.url}/connect/introspect`, {
        method: 'POST',
        headers: { authorization: basic('api1', 'api1-secret'), 'content-type': 'application/json' },
        body: JSON.stringify({ token: alice.access_token }),
      });
      expectTokenError(response, 400, 'invalid_request');
    });
  });

  describe('inactive tokens: exactly {"active": false}', () => {
    it.each([
      ['garbage', 'garbage'],
      ['a JWT-shaped forgery', 'eyJhbGciOiJub25lIiwidHlwIjoiYXQrand0In0.eyJzdWIiOiIxIn0.'],
      ['an unknown refresh token', 'A'.repeat(43)],
    ])('for %s', async (_, token) => {
      expectIntrospection(await introspect(server.url, API1, { token }), INACTIVE);
    });

    it('for an expired access token', async () => {
      const expired = await server.app.get(AccessTokenIssuer).issue({
        clientId: 'frontend',
        lifetimeSeconds: 3600,
        scopes: ['api1'],
        subject: '1',
        authTime: Math.floor(Date.now() / 1000) - 7200,
        authenticationMethods: ['pwd'],
        expiresAtMost: Math.floor(Date.now() / 1000) - 3600,
      });
      expectIntrospection(await introspect(server.url, FRONTEND, { token: expired.token }), INACTIVE);
    });

    it('for a revoked access token', async () => {
      const { access_token: token } = await passwordTokens(server.url, 'openid api1');
      expect((await revoke(server.url, FRONTEND, { token })).status).toBe(200);
      expectIntrospection(await introspect(server.url, FRONTEND, { token }), INACTIVE);
      expectIntrospection(await introspect(server.url, API1, { token }), INACTIVE);
    });

    it('for a foreign access token: neither issued to the caller nor for it', async () => {
      expectIntrospection(await introspect(server.url, M2M, { token: alice.access_token }), INACTIVE);
    });

    it("for another client's refresh token", async () => {
      expectIntrospection(await introspect(server.url, API1, { token: alice.refresh_token! }), INACTIVE);
    });

    it('for a consumed or revoked refresh token', async () => {
      const { refresh_token: consumed } = await passwordTokens(server.url, 'api1 offline_access');
      expect((await refresh(server.url, consumed!)).status).toBe(200);
      expectIntrospection(await introspect(server.url, FRONTEND, { token: consumed! }), INACTIVE);

      const { refresh_token: revoked } = await passwordTokens(server.url, 'api1 offline_access');
      expect((await revoke(server.url, FRONTEND, { token: revoked! })).status).toBe(200);
      expectIntrospection(await introspect(server.url, FRONTEND, { token: revoked! }), INACTIVE);
    });

    it('for the tokens of a disabled user', async () => {
      const username = uniqueName('dave');
      const subject = await insertUser({ username, password: 'dave-password' });
      const tokens = await passwordTokens(server.url, 'openid api1 offline_access', { username, password: 'dave-password' });
      expect((await introspect(server.url, FRONTEND, { token: tokens.access_token })).body.active).toBe(true);
      await sql('UPDATE users SET enabled = false WHERE subject_id = $1', [subject]);
      expectIntrospection(await introspect(server.url, FRONTEND, { token: tokens.access_token }), INACTIVE);
      expectIntrospection(await introspect(server.url, FRONTEND, { token: tokens.refresh_token! }), INACTIVE);
    });
  });

  describe('active tokens', () => {
    it('describes an access token to the client it was issued to', async () => {
      const claims = jwtPayload(alice.access_token);
      expectIntrospection(await introspect(server.url, FRONTEND, { token: alice.access_token }), {
        active: true,
        iss: ISSUER,
        sub: '1',
        client_id: 'frontend',
        scope: 'openid profile api1 offline_access',
        aud: 'api1',
        exp: claims.exp,
        iat: claims.iat,
        jti: claims.jti,
        token_type: 'Bearer',
        auth_time: claims.auth_time,
        acr: 'pwd',
      });
    });

    it('describes an access token to an API its aud names, whatever the hint says', async () => {
      const response = await introspect(server.url, API1, { token: alice.access_token, token_type_hint: 'refresh_token' });
      expect(response.body).toMatchObject({ active: true, sub: '1', client_id: 'frontend', aud: 'api1' });
    });

    it('describes an access token to the client serving a resource its aud names, and to no other API', async () => {
      const resource = uniqueName('orders');
      const ordersApi = { clientId: uniqueName('orders-api'), secret: 'orders-api-secret' };
      const caller = { clientId: uniqueName('orders-caller'), secret: 'orders-caller-secret' };
      await sql('INSERT INTO api_resources (name, scopes, resource_uri, serving_client_id) VALUES ($1, $2, $3, $4)', [
        resource,
        [resource],
        `https://${resource}.example/api`,
        ordersApi.clientId,
      ]);
      await insertClient({ ...ordersApi, secrets: [{ secret: ordersApi.secret }], grantTypes: ['client_credentials'], scopes: ['api1'] });
      await insertClient({ ...caller, secrets: [{ secret: caller.secret }], grantTypes: ['client_credentials'], scopes: [resource] });
      // CACHE_TTL_SECONDS=0 here: the catalog is reloaded within a second.
      await eventually(
        async () => (await requestToken(server.url, caller.clientId, caller.secret, { grant_type: 'client_credentials', scope: resource })).status === 200,
        5000,
      );
      const token = (await requestToken(server.url, caller.clientId, caller.secret, { grant_type: 'client_credentials', scope: resource })).body.access_token;
      expect(jwtPayload(token).aud).toBe(resource);
      const response = await introspect(server.url, ordersApi, { token });
      expect(response.body).toMatchObject({ active: true, client_id: caller.clientId, aud: resource, scope: resource });
      expectIntrospection(await introspect(server.url, API1, { token }), INACTIVE);
    });

    it('describes a client-credentials token without sub', async () => {
      const m2mToken = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
      const response = await introspect(server.url, M2M, { token: m2mToken.body.access_token });
      expect(response.body).toMatchObject({ active: true, client_id: 'm2m', scope: 'api1', token_type: 'Bearer' });
      expect(response.body.sub).toBeUndefined();
    });

    it('shows act for a delegated token', async () => {
      const exchanged = await requestToken(server.url, 'api1', 'api1-secret', {
        grant_type: TOKEN_EXCHANGE,
        subject_token: alice.access_token,
        subject_token_type: ACCESS_TOKEN_TYPE,
        scope: 'api2',
      });
      const response = await introspect(server.url, API1, { token: exchanged.body.access_token });
      expect(response.body).toMatchObject({ active: true, sub: '1', client_id: 'api1', aud: 'api2', act: { client_id: 'api1' } });
    });

    it('describes a refresh token to its own client, whatever the hint says', async () => {
      const response = await introspect(server.url, FRONTEND, { token: alice.refresh_token!, token_type_hint: 'access_token' });
      expectIntrospection(response, {
        active: true,
        iss: ISSUER,
        sub: '1',
        client_id: 'frontend',
        scope: 'openid profile api1 offline_access',
        exp: expect.any(Number),
        iat: expect.any(Number),
        auth_time: jwtPayload(alice.access_token).auth_time,
        acr: 'pwd',
      });
      expect(response.body.exp - response.body.iat).toBe(2_592_000);
    });
  });

  describe('discovery', () => {
    it('advertises the endpoint and its client authentication methods', async () => {
      const { body } = await request(`${server.url}/.well-known/openid-configuration`);
      expect(body).toMatchObject({
        introspection_endpoint: `${ISSUER}/connect/introspect`,
        introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
        introspection_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      });
      expect(body.grant_types_supported).toEqual(expect.arrayContaining(['refresh_token', TOKEN_EXCHANGE]));
    });
  });

  describe('openid-client interoperability', () => {
    it('introspects with tokenIntrospection', async () => {
      const config = await openIdClient(server, API1);
      expect(await oidc.tokenIntrospection(config, alice.access_token)).toMatchObject({ active: true, sub: '1', client_id: 'frontend' });
      expect(await oidc.tokenIntrospection(config, 'garbage')).toEqual({ active: false });
    });

    it('accepts client_secret_post too', async () => {
      const response = await postForm(`${server.url}/connect/introspect`, { token: alice.access_token, client_id: 'api1', client_secret: 'api1-secret' });
      expect(response.body).toMatchObject({ active: true });
    });
  });
});
