import * as oidc from 'openid-client';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { Browser } from '../support/browser';

/**
 * Interoperability with a certified relying-party library: openid-client's authorization-code
 * helpers (PKCE, state, nonce, the RFC 9207 iss check, ID-token validation) work against the
 * service unmodified, for a public and a confidential client.
 */
describe('authorization code flow with openid-client', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  // The issuer is http://tollgate.test; every request for it goes to the test server.
  const routeToTestServer: oidc.CustomFetch = (url, options) => fetch(url.replace(ISSUER, server.url), options as RequestInit);
  const discover = (clientId: string, auth: oidc.ClientAuth) =>
    oidc.discovery(new URL(ISSUER), clientId, undefined, auth, { [oidc.customFetch]: routeToTestServer, execute: [oidc.allowInsecureRequests] });

  /** The browser's part: open the authorization URL, sign in (and allow), return the callback URL. */
  async function browse(authorizationUrl: URL, username: string, consent = false): Promise<URL> {
    const browser = new Browser();
    const page = await browser.get(authorizationUrl.href.replace(ISSUER, server.url));
    let response = await browser.submit(server.url, await page.text(), { username, password: username });
    if (consent) response = await browser.submit(server.url, await response.text(), { decision: 'allow' });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location')!);
  }

  async function authorizationRequest(config: oidc.Configuration, redirectUri: string, scope: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url, checks: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true } };
  }

  it('signs alice in to the public spa client and reads her userinfo', async () => {
    const config = await discover('spa', oidc.None());
    const { url, checks } = await authorizationRequest(config, 'http://127.0.0.1:5173/callback', 'openid profile email offline_access');
    const tokens = await oidc.authorizationCodeGrant(config, await browse(url, 'alice'), checks);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: ISSUER, sub: '1', aud: 'spa', nonce: checks.expectedNonce, amr: ['pwd'] });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userinfo).toMatchObject({ sub: '1', name: 'Alice Smith', email: 'alice@example.com' });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()).toMatchObject({ sub: '1', sid: claims.sid });

    const logout = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:5173/', state: 'bye' });
    expect(logout.href.startsWith(`${ISSUER}/connect/endsession?`)).toBe(true);
  });

  it('signs bob in to the confidential webapp client through the consent page', async () => {
    const config = await discover('webapp', oidc.ClientSecretBasic('webapp-secret'));
    const { url, checks } = await authorizationRequest(config, 'http://127.0.0.1:5174/callback', 'openid profile');
    const tokens = await oidc.authorizationCodeGrant(config, await browse(url, 'bob', true), checks);
    expect(tokens.claims()).toMatchObject({ sub: '2', aud: 'webapp', azp: 'webapp' });
  });

  it('rejects a callback whose state was tampered with', async () => {
    const config = await discover('spa', oidc.None());
    const { url, checks } = await authorizationRequest(config, 'http://127.0.0.1:5173/callback', 'openid');
    const callback = await browse(url, 'alice');
    await expect(oidc.authorizationCodeGrant(config, callback, { ...checks, expectedState: 'another-state' })).rejects.toThrow();
  });
});
