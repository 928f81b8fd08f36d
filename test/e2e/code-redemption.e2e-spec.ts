import { Browser, locationParameters, pkce } from '../support/browser';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, uniqueName } from '../support/fixtures';
import { postForm, type HttpResponse } from '../support/http';

/**
 * RFC 6749 §4.1.3 and RFC 7636 §4.6 at the token endpoint: `redirect_uri` is required there only
 * when the authorization request carried it, and a request that fails a check (a wrong
 * `code_verifier`) does not use the code up.
 */
describe('authorization code redemption', () => {
  let server: TestServer;
  const client = { clientId: uniqueName('one-uri'), redirectUri: 'http://127.0.0.1:5176/callback' };

  beforeAll(async () => {
    server = await startTestServer();
    await insertClient({
      clientId: client.clientId,
      secrets: [],
      public: true,
      grantTypes: ['authorization_code'],
      scopes: ['openid', 'profile'],
      redirectUris: [client.redirectUri],
    });
  });
  afterAll(() => server.close());

  /** Signs alice in; the authorization request names the redirect URI only when `sendRedirectUri`. */
  async function code(sendRedirectUri: boolean): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkce();
    const parameters = new URLSearchParams({
      client_id: client.clientId,
      ...(sendRedirectUri ? { redirect_uri: client.redirectUri } : {}),
      response_type: 'code',
      scope: 'openid profile',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const browser = new Browser();
    const loginPage = await browser.get(`${server.url}/connect/authorize?${parameters}`);
    expect(loginPage.status).toBe(200);
    const redirect = await browser.submit(server.url, await loginPage.text(), { username: 'alice', password: 'alice' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(new RegExp(`^${client.redirectUri}\\?`));
    return { code: locationParameters(redirect).code, verifier };
  }

  const redeem = (form: Record<string, string>): Promise<HttpResponse> =>
    postForm(`${server.url}/connect/token`, { grant_type: 'authorization_code', client_id: client.clientId, ...form });
  const expectInvalidGrant = (response: HttpResponse, description: string) =>
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: description } });

  describe('redirect_uri', () => {
    it('is not required when the authorization request had none', async () => {
      const { code: issued, verifier } = await code(false);
      const response = await redeem({ code: issued, code_verifier: verifier });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), id_token: expect.any(String) });
    });

    it('may still be sent then, as the registered one, and nothing else', async () => {
      const first = await code(false);
      expectInvalidGrant(
        await redeem({ code: first.code, code_verifier: first.verifier, redirect_uri: 'http://127.0.0.1:5176/other' }),
        'redirect_uri is not the one of the authorization request',
      );
      const second = await code(false);
      expect((await redeem({ code: second.code, code_verifier: second.verifier, redirect_uri: client.redirectUri })).status).toBe(200);
    });

    it('is required, and identical, when the authorization request had it', async () => {
      const { code: issued, verifier } = await code(true);
      expectInvalidGrant(await redeem({ code: issued, code_verifier: verifier }), 'redirect_uri is not the one of the authorization request');
      expect((await redeem({ code: issued, code_verifier: verifier, redirect_uri: client.redirectUri })).status).toBe(200);
    });
  });

  describe('code_verifier', () => {
    it('a wrong one leaves the code usable: the right one afterwards redeems it, once', async () => {
      const { code: issued, verifier } = await code(true);
      const form = { code: issued, redirect_uri: client.redirectUri };
      expectInvalidGrant(await redeem({ ...form, code_verifier: pkce().verifier }), 'code_verifier does not match the code challenge');
      expectInvalidGrant(await redeem(form), 'code_verifier does not match the code challenge');
      const redeemed = await redeem({ ...form, code_verifier: verifier });
      expect(redeemed.status).toBe(200);
      expectInvalidGrant(await redeem({ ...form, code_verifier: verifier }), 'the authorization code has already been used');
    });

    it('a wrong one after the code was used is still a replay, and revokes what the code issued', async () => {
      const { code: issued, verifier } = await code(true);
      const form = { code: issued, redirect_uri: client.redirectUri };
      const redeemed = await redeem({ ...form, code_verifier: verifier });
      expect(redeemed.status).toBe(200);
      expectInvalidGrant(await redeem({ ...form, code_verifier: pkce().verifier }), 'the authorization code has already been used');
      const userinfo = await fetch(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${redeemed.body.access_token}` } });
      expect(userinfo.status).toBe(401);
    });
  });
});
