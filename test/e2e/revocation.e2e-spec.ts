import * as oidc from 'openid-client';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError } from '../support/fixtures';
import { postForm, request, requestToken, type HttpResponse } from '../support/http';
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
  userinfo,
} from '../support/token-lifecycle';

function expectRevoked(response: HttpResponse): void {
  expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: '' });
  expect(response.headers.get('cache-control')).toBe('no-store');
}

const delegate = (url: string, token: string) => requestToken(url, 'api1', 'api1-secret', { grant_type: 'delegation', token, scope: 'api2' });
const exchange = (url: string, token: string) =>
  requestToken(url, 'api1', 'api1-secret', { grant_type: TOKEN_EXCHANGE, subject_token: token, subject_token_type: ACCESS_TOKEN_TYPE, scope: 'api2' });

/** RFC 7009 (docs/endpoints.md#revocation). */
describe('POST /connect/revocation', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe('request errors', () => {
    it('refuses a caller without client authentication as 401 invalid_client', async () => {
      const { access_token: token } = await passwordTokens(server.url, 'openid api1');
      expectTokenError(await postForm(`${server.url}/connect/revocation`, { token }), 401, 'invalid_client', { basicChallenge: true });
      expect((await userinfo(server.url, token)).status).toBe(200);
    });

    it.each<[string, Record<string, string | string[]>]>([
      ['a missing token', {}],
      ['an empty token', { token: '' }],
      ['token sent twice', { token: ['a', 'b'] }],
    ])('refuses %s as invalid_request', async (_, form) => {
      expectTokenError(await revoke(server.url, FRONTEND, form), 400, 'invalid_request');
    });

    it("refuses another client's access token as invalid_request, and it stays valid", async () => {
      const { access_token: token } = await passwordTokens(server.url, 'openid api1');
      // api1 is in the token's aud, but the token was not issued to it.
      expectTokenError(await revoke(server.url, API1, { token }), 400, 'invalid_request');
      expect((await userinfo(server.url, token)).status).toBe(200);
      expect((await introspect(server.url, FRONTEND, { token })).body.active).toBe(true);
    });

    it("refuses another client's refresh token as invalid_request, and it stays valid", async () => {
      const { refresh_token: handle } = await passwordTokens(server.url, 'openid api1 offline_access');
      expectTokenError(await revoke(server.url, M2M, { token: handle!, token_type_hint: 'refresh_token' }), 400, 'invalid_request');
      expect((await refresh(server.url, handle!)).status).toBe(200);
    });
  });

  describe('nothing to revoke: 200 all the same', () => {
    it.each([
      ['an unknown refresh token', 'A'.repeat(43)],
      ['garbage', 'garbage'],
      ['a forged JWT', 'eyJhbGciOiJub25lIiwidHlwIjoiYXQrand0In0.eyJzdWIiOiIxIn0.'],
    ])('for %s', async (_, token) => {
      expectRevoked(await revoke(server.url, FRONTEND, { token }));
    });

    it('for an already revoked access token and refresh token', async () => {
      const tokens = await passwordTokens(server.url, 'openid api1 offline_access');
      for (const token of [tokens.access_token, tokens.refresh_token!]) {
        expectRevoked(await revoke(server.url, FRONTEND, { token }));
        expectRevoked(await revoke(server.url, FRONTEND, { token }));
      }
    });
  });

  describe('access tokens', () => {
    it('denies a revoked token to userinfo, introspection, delegation and token exchange', async () => {
      const { access_token: token } = await passwordTokens(server.url, 'openid profile api1');
      expect((await userinfo(server.url, token)).status).toBe(200);
      expect((await delegate(server.url, token)).status).toBe(200);
      expect((await exchange(server.url, token)).status).toBe(200);

      expectRevoked(await revoke(server.url, FRONTEND, { token, token_type_hint: 'access_token' }));

      const refused = await userinfo(server.url, token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      expect((await introspect(server.url, API1, { token })).body).toEqual({ active: false });
      expectTokenError(await delegate(server.url, token), 400, 'invalid_grant');
      expectTokenError(await exchange(server.url, token), 400, 'invalid_request');
    });

    it('leaves the other tokens of the same user alone', async () => {
      const [revoked, kept] = [await passwordTokens(server.url, 'openid api1'), await passwordTokens(server.url, 'openid api1')];
      expectRevoked(await revoke(server.url, FRONTEND, { token: revoked.access_token }));
      expect((await userinfo(server.url, kept.access_token)).status).toBe(200);
    });

    it('lets the client revoke a token obtained by token exchange', async () => {
      const { access_token: subjectToken } = await passwordTokens(server.url, 'openid api1');
      const exchanged = await exchange(server.url, subjectToken);
      expect(exchanged.status).toBe(200);
      expectRevoked(await revoke(server.url, API1, { token: exchanged.body.access_token }));
      expect((await introspect(server.url, API1, { token: exchanged.body.access_token })).body).toEqual({ active: false });
      expect((await introspect(server.url, API1, { token: subjectToken })).body.active).toBe(true);
    });
  });

  describe('refresh tokens', () => {
    it('revokes the whole family and the access tokens issued with it, whatever the hint says', async () => {
      const first = await passwordTokens(server.url, 'openid api1 offline_access');
      const second = await refresh(server.url, first.refresh_token!);
      expect(second.status).toBe(200);

      expectRevoked(await revoke(server.url, FRONTEND, { token: second.body.refresh_token, token_type_hint: 'access_token' }));

      expectTokenError(await refresh(server.url, second.body.refresh_token), 400, 'invalid_grant');
      expect((await introspect(server.url, FRONTEND, { token: second.body.refresh_token })).body).toEqual({ active: false });
      for (const accessToken of [first.access_token, second.body.access_token]) {
        expect((await userinfo(server.url, accessToken)).status).toBe(401);
        expectTokenError(await delegate(server.url, accessToken), 400, 'invalid_grant');
      }
    });
  });

  describe('discovery', () => {
    it('advertises the endpoint and its client authentication methods', async () => {
      const { body } = await request(`${server.url}/.well-known/openid-configuration`);
      expect(body).toMatchObject({
        revocation_endpoint: `${ISSUER}/connect/revocation`,
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
        revocation_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      });
    });
  });

  describe('openid-client interoperability', () => {
    it('revokes with tokenRevocation', async () => {
      const config = await openIdClient(server, FRONTEND);
      const tokens = await oidc.genericGrantRequest(config, 'password', { username: 'bob', password: 'bob', scope: 'openid api1 offline_access' });
      await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' });
      await oidc.tokenRevocation(config, tokens.refresh_token!);
      expect((await userinfo(server.url, tokens.access_token)).status).toBe(401);
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    });
  });
});

/** docs/endpoints.md#revocation: instances share the deny list through the database, within 5 seconds. */
describe('POST /connect/revocation — two instances on one database', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    [first, second] = [await startTestServer(), await startTestServer()];
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('refuses on the second instance, within 5 s, an access token revoked on the first', async () => {
    const { access_token: token } = await passwordTokens(first.url, 'openid api1');
    expect((await userinfo(second.url, token)).status).toBe(200);
    expectRevoked(await revoke(first.url, FRONTEND, { token }));
    expect((await userinfo(first.url, token)).status).toBe(401);
    await eventually(async () => (await userinfo(second.url, token)).status === 401, 5000);
    expectTokenError(await delegate(second.url, token), 400, 'invalid_grant');
    expect((await introspect(second.url, FRONTEND, { token })).body).toEqual({ active: false });
  });

  it('refuses on the first instance the access tokens of a refresh token family revoked on the second', async () => {
    const tokens = await passwordTokens(first.url, 'openid api1 offline_access');
    expectRevoked(await revoke(second.url, FRONTEND, { token: tokens.refresh_token! }));
    expectTokenError(await refresh(first.url, tokens.refresh_token!), 400, 'invalid_grant');
    await eventually(async () => (await userinfo(first.url, tokens.access_token)).status === 401, 5000);
  });

  it('keeps honouring a revocation on an instance that starts afterwards', async () => {
    const { access_token: token } = await passwordTokens(first.url, 'openid api1');
    expectRevoked(await revoke(first.url, FRONTEND, { token }));
    const third = await startTestServer();
    try {
      expect((await userinfo(third.url, token)).status).toBe(401);
    } finally {
      await third.close();
    }
  });
});
