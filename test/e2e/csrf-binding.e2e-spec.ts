import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { Browser, locationParameters, pkce, readForm } from '../support/browser';
import { insertClient, uniqueName } from '../support/fixtures';

const SPA_REDIRECT = 'http://127.0.0.1:5173/callback';

/**
 * docs/browser-sign-in.md#pages: a form's CSRF token is an HMAC of the browser's pre-session or
 * session, renewed at sign-in; the cookies are `__Host-` and HSTS is sent when the issuer is https;
 * a large Cookie header does not stop a sign-in.
 */
describe('CSRF tokens bound to the session', () => {
  let server: TestServer;
  const consentClient = uniqueName('consent-app');
  beforeAll(async () => {
    server = await startTestServer();
    await insertClient({
      clientId: consentClient,
      secrets: [{ secret: 'secret' }],
      grantTypes: ['authorization_code'],
      scopes: ['openid'],
      redirectUris: [SPA_REDIRECT],
      requireConsent: true,
    });
  });
  afterAll(() => server.close());

  const authorizeUrl = (base: string, extra: Record<string, string> = {}) =>
    `${base}/connect/authorize?${new URLSearchParams({
      client_id: 'spa',
      redirect_uri: SPA_REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 'st',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      ...extra,
    })}`;
  const credentials = { username: 'alice', password: 'alice' };

  it('refuses an equal cookie and form token that the service did not issue', async () => {
    const browser = new Browser();
    const { hidden } = readForm(await (await browser.get(authorizeUrl(server.url))).text());
    const planted = randomBytes(32).toString('base64url');
    for (const name of ['tollgate.csrf', 'tollgate.presession']) browser.cookies.set(name, planted);
    const response = await browser.post(`${server.url}/interaction/login`, { ...hidden, ...credentials, csrf_token: planted });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie().some((line) => line.includes('session='))).toBe(false);
  });

  it("refuses another browser's token", async () => {
    const { hidden } = readForm(await (await new Browser().get(authorizeUrl(server.url))).text());
    const victim = new Browser();
    await victim.get(authorizeUrl(server.url));
    const response = await victim.post(`${server.url}/interaction/login`, { ...hidden, ...credentials });
    expect(response.status).toBe(403);
  });

  it('renews the token at sign-in: the login form posted again is refused', async () => {
    const browser = new Browser();
    const page = await (await browser.get(authorizeUrl(server.url))).text();
    const signedIn = await browser.submit(server.url, page, credentials);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.getSetCookie().find((line) => line.startsWith('tollgate.presession='))).toMatch(/Max-Age=0/);
    expect((await browser.submit(server.url, page, credentials)).status).toBe(403);
  });

  it('binds the consent form to the session: a token of the pre-session or of another session is refused', async () => {
    const consentUrl = authorizeUrl(server.url, { client_id: consentClient });
    const alice = new Browser();
    const login = await (await alice.get(consentUrl)).text();
    const preSessionToken = readForm(login).hidden.csrf_token;
    const consentPage = await (await alice.submit(server.url, login, credentials)).text();
    const { hidden } = readForm(consentPage);
    expect(hidden.csrf_token).not.toBe(preSessionToken);
    const other = new Browser();
    await other.submit(server.url, await (await other.get(consentUrl)).text(), credentials);
    expect((await other.post(`${server.url}/interaction/consent`, { ...hidden, decision: 'allow' })).status).toBe(403);
    expect((await alice.post(`${server.url}/interaction/consent`, { ...hidden, csrf_token: preSessionToken, decision: 'allow' })).status).toBe(403);
    const allowed = await alice.post(`${server.url}/interaction/consent`, { ...hidden, decision: 'allow' });
    expect(allowed.status).toBe(302);
    expect(locationParameters(allowed).code).toEqual(expect.any(String));
  });

  it('sends no HSTS and plain cookie names on an http issuer', async () => {
    const browser = new Browser();
    const page = await browser.get(authorizeUrl(server.url));
    expect(page.headers.get('strict-transport-security')).toBeNull();
    expect(page.headers.getSetCookie()).toEqual([expect.stringMatching(/^tollgate\.presession=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/)]);
  });

  it('uses __Host- cookies and sends HSTS when the issuer is https', async () => {
    const https = await startTestServer({ ISSUER: 'https://tollgate.example' });
    try {
      const browser = new Browser();
      const page = await browser.get(authorizeUrl(https.url));
      expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000');
      const cookie = page.headers.getSetCookie().find((line) => line.startsWith('__Host-tollgate.presession='));
      expect(cookie).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      expect(cookie).not.toMatch(/Domain=/i);
      const redirect = await browser.submit(https.url, await page.text(), credentials);
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(redirect.headers.getSetCookie().find((line) => line.startsWith('__Host-tollgate.session='))).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      expect(browser.cookies.has('tollgate.session')).toBe(false);
      expect(locationParameters(await browser.get(authorizeUrl(https.url, { prompt: 'none' }))).code).toEqual(expect.any(String));
      const discovery = await fetch(`${https.url}/.well-known/openid-configuration`);
      expect(discovery.headers.get('strict-transport-security')).toBe('max-age=31536000');
    } finally {
      await https.close();
    }
  });

  it('signs in, and keeps the session, with a Cookie header over 8 KiB', async () => {
    const browser = new Browser();
    browser.cookies.set('other_app', 'x'.repeat(10 * 1024));
    const page = await browser.get(authorizeUrl(server.url));
    const redirect = await browser.submit(server.url, await page.text(), credentials);
    expect(redirect.status).toBe(302);
    expect(locationParameters(redirect).code).toEqual(expect.any(String));
    expect(locationParameters(await browser.get(authorizeUrl(server.url, { prompt: 'none' }))).code).toEqual(expect.any(String));
  });
});
