import { createServer, type Server } from 'node:http';
import type { Browser as Chromium, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium, warnWithoutChromium } from '../support/chromium';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { Browser, locationParameters, pkce, readForm } from '../support/browser';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { postForm } from '../support/http';

warnWithoutChromium('the logout specs in Chromium');

/**
 * Another site, on another loopback address (127.0.0.2, so another site than Tollgate's 127.0.0.1):
 * the relying party's callback and post-logout pages, and a page that sends the browser elsewhere.
 */
async function startOtherSite(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const to = url.searchParams.get('to');
    const body =
      url.pathname === '/navigate' && to
        ? `<!doctype html><title>elsewhere</title><script>location.href = ${JSON.stringify(to)};</script>`
        : `<!doctype html><title>${url.pathname}</title><p id="site">${url.pathname}</p>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.2:${port}`, server };
}

/**
 * docs/browser-sign-in.md#logout--get-or-post-connectendsession: a logout that does not name the signed-in user by an ID token is
 * confirmed on a page with a CSRF-protected form (OpenID Connect RP-Initiated Logout 1.0 §2); a
 * logout revokes the session's unredeemed authorization codes.
 */
describe('logout confirmation', () => {
  let tollgate: TestServer;
  let site: { url: string; server: Server };
  let chromiumBrowser: Chromium | undefined;
  const clientId = uniqueName('logout-rp');
  const bob = uniqueName('bob');

  beforeAll(async () => {
    tollgate = await startTestServer();
    site = await startOtherSite();
    await insertClient({
      clientId,
      secrets: [],
      public: true,
      grantTypes: ['authorization_code'],
      scopes: ['openid'],
      redirectUris: [`${site.url}/callback`],
      postLogoutRedirectUris: [`${site.url}/signed-out`],
    });
    await insertUser({ username: bob, password: 'bob-password' });
    if (hasChromium) {
      chromiumBrowser = await launchChromium();
    }
  }, 120_000);

  afterAll(async () => {
    await chromiumBrowser?.close();
    await new Promise((resolve) => site?.server.close(resolve));
    await tollgate?.close();
  });

  const authorizeUrl = (challenge: string, extra: Record<string, string> = {}) =>
    `${tollgate.url}/connect/authorize?${new URLSearchParams({
      client_id: clientId,
      redirect_uri: `${site.url}/callback`,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    })}`;
  const endSessionUrl = (parameters: Record<string, string> = {}) => `${tollgate.url}/connect/endsession?${new URLSearchParams(parameters)}`;

  const redeem = (code: string, verifier: string) =>
    postForm(`${tollgate.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: `${site.url}/callback`,
      code_verifier: verifier,
    });

  describe('in Chromium, from a page of another site', () => {
    const chromiumIt = hasChromium ? it : it.skip;

    async function signIn(context: BrowserContext, username: string, password: string): Promise<{ page: Page; idToken: string }> {
      const page = await context.newPage();
      const { verifier, challenge } = pkce();
      await page.goto(authorizeUrl(challenge));
      await page.fill('#username', username);
      await page.fill('#password', password);
      await page.click('button[type=submit]');
      await page.waitForURL(`${site.url}/callback?**`);
      const tokens = await redeem(new URL(page.url()).searchParams.get('code')!, verifier);
      expect(tokens.status).toBe(200);
      return { page, idToken: tokens.body.id_token };
    }

    /** Whether the browser still has a usable session: a silent authorization request gets a code. */
    async function hasSession(page: Page): Promise<boolean> {
      await page.goto(authorizeUrl(pkce().challenge, { prompt: 'none' }));
      await page.waitForURL(`${site.url}/callback?**`);
      return new URL(page.url()).searchParams.has('code');
    }

    /** The other site sends the browser to Tollgate's end-session endpoint (a top-level GET: SameSite=Lax cookies go along). */
    async function sentToLogout(page: Page, parameters: Record<string, string> = {}): Promise<void> {
      await page.goto(`${site.url}/navigate?${new URLSearchParams({ to: endSessionUrl(parameters) })}`);
      await page.waitForURL((url) => url.pathname !== '/navigate');
      await page.waitForLoadState();
    }

    chromiumIt('asks before ending the session when no id_token_hint is sent, and ends it once confirmed', async () => {
      const context = await chromiumBrowser!.newContext();
      try {
        const { page } = await signIn(context, 'alice', 'alice');
        await sentToLogout(page);
        expect(page.url()).toBe(endSessionUrl());
        expect(await page.textContent('h1')).toBe('Sign out of Tollgate?');
        expect(await hasSession(page)).toBe(true);

        await sentToLogout(page);
        await page.click('button[type=submit]');
        await page.waitForSelector('text=You are signed out');
        expect(await hasSession(page)).toBe(false);
      } finally {
        await context.close();
      }
    });

    chromiumIt('asks when id_token_hint names another user, then returns to the post-logout URI with state', async () => {
      const bobContext = await chromiumBrowser!.newContext();
      const aliceContext = await chromiumBrowser!.newContext();
      try {
        const { idToken: bobsIdToken } = await signIn(bobContext, bob, 'bob-password');
        const { page } = await signIn(aliceContext, 'alice', 'alice');
        const parameters = { id_token_hint: bobsIdToken, post_logout_redirect_uri: `${site.url}/signed-out`, state: 'bye' };
        await sentToLogout(page, parameters);
        expect(page.url()).toBe(endSessionUrl(parameters));
        expect(await page.textContent('h1')).toBe('Sign out of Tollgate?');
        expect(await hasSession(page)).toBe(true);

        await sentToLogout(page, parameters);
        await page.click('button[type=submit]');
        await page.waitForURL(`${site.url}/signed-out?state=bye`);
        expect(await hasSession(page)).toBe(false);
      } finally {
        await bobContext.close();
        await aliceContext.close();
      }
    });

    chromiumIt('ends the session without asking when id_token_hint names the signed-in user', async () => {
      const context = await chromiumBrowser!.newContext();
      try {
        const { page, idToken } = await signIn(context, 'alice', 'alice');
        await page.goto(
          `${site.url}/navigate?${new URLSearchParams({ to: endSessionUrl({ id_token_hint: idToken, post_logout_redirect_uri: `${site.url}/signed-out`, state: 'bye' }) })}`,
        );
        await page.waitForURL(`${site.url}/signed-out?state=bye`);
        expect(await hasSession(page)).toBe(false);
      } finally {
        await context.close();
      }
    });
  });

  describe('over HTTP', () => {
    async function signedIn(): Promise<{ browser: Browser; code: string; verifier: string }> {
      const browser = new Browser();
      const { verifier, challenge } = pkce();
      const page = await browser.get(authorizeUrl(challenge));
      const redirect = await browser.submit(tollgate.url, await page.text(), { username: 'alice', password: 'alice' });
      return { browser, code: locationParameters(redirect).code, verifier };
    }
    const silentCode = async (browser: Browser) => locationParameters(await browser.get(authorizeUrl(pkce().challenge, { prompt: 'none' }))).code;

    it('shows the confirmation with the headers of every page and a form posted to /interaction/logout', async () => {
      const { browser } = await signedIn();
      const page = await browser.get(endSessionUrl({ client_id: clientId, post_logout_redirect_uri: `${site.url}/signed-out`, state: 'bye' }));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(
        `default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self' ${site.url}; frame-ancestors 'none'; base-uri 'none'`,
      );
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      const form = readForm(await page.text());
      expect(form).toEqual({
        action: '/interaction/logout',
        method: 'post',
        hidden: {
          csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          client_id: clientId,
          post_logout_redirect_uri: `${site.url}/signed-out`,
          state: 'bye',
        },
      });
      expect(await silentCode(browser)).toEqual(expect.any(String));
      const confirmed = await browser.post(`${tollgate.url}${form.action}`, form.hidden);
      expect(confirmed.status).toBe(302);
      expect(confirmed.headers.get('location')).toBe(`${site.url}/signed-out?state=bye`);
      expect(browser.cookies.has('tollgate.session')).toBe(false);
    });

    it.each<[string, (form: Record<string, string>, other: Record<string, string>) => void]>([
      ['no CSRF token', (form) => delete form.csrf_token],
      ["another browser's CSRF token", (form, other) => (form.csrf_token = other.csrf_token)],
    ])('refuses a confirmation with %s, and keeps the session', async (_, change) => {
      const { browser } = await signedIn();
      const { browser: otherBrowser } = await signedIn();
      const { hidden } = readForm(await (await browser.get(endSessionUrl())).text());
      const { hidden: other } = readForm(await (await otherBrowser.get(endSessionUrl())).text());
      change(hidden, other);
      const refused = await browser.post(`${tollgate.url}/interaction/logout`, hidden);
      expect(refused.status).toBe(403);
      expect(refused.headers.getSetCookie()).toEqual([]);
      expect(await silentCode(browser)).toEqual(expect.any(String));
    });

    it("revokes the session's unredeemed authorization codes at logout, with or without confirmation", async () => {
      for (const confirmed of [false, true]) {
        const { browser, code, verifier } = await signedIn();
        const { body } = await redeem(code, verifier);
        const { verifier: unredeemedVerifier, challenge } = pkce();
        const unredeemed = locationParameters(await browser.get(authorizeUrl(challenge, { prompt: 'none' }))).code;
        if (confirmed) {
          const { hidden } = readForm(await (await browser.get(endSessionUrl())).text());
          expect((await browser.post(`${tollgate.url}/interaction/logout`, hidden)).status).toBe(200);
        } else {
          expect((await browser.get(endSessionUrl({ id_token_hint: body.id_token }))).status).toBe(200);
        }
        expect(browser.cookies.has('tollgate.session')).toBe(false);
        const refused = await redeem(unredeemed, unredeemedVerifier);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toBe('invalid_grant');
      }
    });

    it('needs no confirmation when the browser has no session', async () => {
      const logout = await new Browser().get(endSessionUrl({ client_id: clientId, post_logout_redirect_uri: `${site.url}/signed-out` }));
      expect(logout.status).toBe(302);
      expect(logout.headers.get('location')).toBe(`${site.url}/signed-out`);
    });
  });
});
