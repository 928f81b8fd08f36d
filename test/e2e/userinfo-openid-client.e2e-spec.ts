import * as oidc from 'openid-client';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';

/**
 * Interoperability with a certified relying-party library: openid-client v6 discovers the service,
 * gets a token through the `password` grant and reads the UserInfo endpoint, checking `sub`.
 */
describe('UserInfo with openid-client', () => {
  let server: TestServer;
  let config: oidc.Configuration;

  beforeAll(async () => {
    server = await startTestServer();
    // The issuer is http://tollgate.test; every request for it goes to the test server, so that
    // openid-client checks the discovered `issuer` and endpoints against the real issuer URL.
    const routeToTestServer: oidc.CustomFetch = (url, options) => fetch(url.replace(ISSUER, server.url), options as RequestInit);
    config = await oidc.discovery(new URL(ISSUER), 'frontend', undefined, oidc.ClientSecretBasic('frontend-secret'), {
      [oidc.customFetch]: routeToTestServer,
      execute: [oidc.allowInsecureRequests],
    });
  });
  afterAll(() => server.close());

  it('discovers the userinfo endpoint', () => {
    expect(config.serverMetadata()).toMatchObject({
      issuer: ISSUER,
      token_endpoint: `${ISSUER}/connect/token`,
      userinfo_endpoint: `${ISSUER}/connect/userinfo`,
    });
  });

  it("fetches alice's claims with a password-grant token, its sub check included", async () => {
    const tokens = await oidc.genericGrantRequest(config, 'password', { username: 'alice', password: 'alice', scope: 'openid profile email role' });
    expect(tokens.token_type).toBe('bearer');

    const claims = await oidc.fetchUserInfo(config, tokens.access_token, '1');
    expect(claims).toEqual({
      sub: '1',
      name: 'Alice Smith',
      given_name: 'Alice',
      family_name: 'Smith',
      preferred_username: 'alice',
      updated_at: Date.parse('2026-01-01T00:00:00Z') / 1000,
      email: 'alice@example.com',
      email_verified: true,
      role: ['admin', 'user'],
    });
  });

  it('rejects the response when the subject is not the one expected', async () => {
    const tokens = await oidc.genericGrantRequest(config, 'password', { username: 'bob', password: 'bob', scope: 'openid' });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, '1')).rejects.toMatchObject({ code: 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' });
  });

  it('surfaces the Bearer challenge of a token without openid', async () => {
    const tokens = await oidc.genericGrantRequest(config, 'password', { username: 'bob', password: 'bob', scope: 'api1' });
    const error = await oidc.fetchUserInfo(config, tokens.access_token, '2').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect((error as oidc.WWWAuthenticateChallengeError).cause).toEqual([
      {
        scheme: 'bearer',
        parameters: { realm: ISSUER, error: 'insufficient_scope', error_description: 'the access token lacks the openid scope', scope: 'openid' },
      },
    ]);
  });
});
