import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Browser as Chromium, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium, warnWithoutChromium } from '../support/chromium';
import { createApp } from '../../src/app.factory';
import { Browser, locationParameters, pkce } from '../support/browser';
import { startTestServer, testConfig, type TestServer } from '../support/create-test-app';
import { postFormFrom, requestToken, requestTokenFrom, type HttpResponse } from '../support/http';

warnWithoutChromium('the device-cookie specs');

const SPA_CALLBACK = 'http://127.0.0.1:5173/callback';
/** The service's own sign-in budgets, with back-offs long enough to outlast a slow run. */
const DEFAULT_SIGN_IN_THROTTLING = {
  RATE_LIMIT_AUTH_FAILURES: '',
  RATE_LIMIT_ANONYMOUS_AUTH_FAILURES: '',
  SIGN_IN_FAILURES_BEFORE_BACKOFF: '',
  SIGN_IN_ADDRESS_FAILURES: '',
  SIGN_IN_BACKOFF_SECONDS: '3600',
  RATE_LIMIT_WINDOW_SECONDS: '3600',
};
const WRONG_PASSWORD = { error: 'invalid_grant', error_description: 'the username or password is incorrect, or the user is disabled' };

function authorizeUrl(baseUrl: string, challenge: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'spa',
    redirect_uri: SPA_CALLBACK,
    scope: 'openid',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  return `${baseUrl}/connect/authorize?${query}`;
}

/** What neighbours at one address can do: wrong passwords for alice past her back-off, then 50 usernames. */
async function neighboursGuess(send: (username: string, password: string) => Promise<HttpResponse>): Promise<void> {
  for (let i = 0; i < 6; i++) expect((await send('alice', `guess-${i}`)).body).toEqual(WRONG_PASSWORD);
  for (let i = 0; i < 50; i++) expect((await send(`user-${i}`, 'guess')).body).toEqual(WRONG_PASSWORD);
  // Both budgets of the address are used up: even alice's right password is refused from there.
  expect((await send('alice', 'alice')).body).toEqual(WRONG_PASSWORD);
  expect((await send('bob', 'bob')).body).toEqual(WRONG_PASSWORD);
}

/**
 * Device cookies (docs/throttling.md#device-cookies): a browser that signed in as a user keeps
 * signing in as that user whatever its neighbours at the same address (NAT, CGNAT, an IPv6 /64) do.
 */
(hasChromium ? describe : describe.skip)('device cookies, in Chromium, behind an address shared with attackers', () => {
  let server: TestServer;
  let chromiumBrowser: Chromium;
  let context: BrowserContext;
  let page: Page;
  /** Alice's second browser (another device in the same house). */
  let laptop: Page;

  beforeAll(async () => {
    server = await startTestServer(DEFAULT_SIGN_IN_THROTTLING);
    chromiumBrowser = await launchChromium();
    const newContext = async () => {
      const created = await chromiumBrowser.newContext();
      // The spa's redirect URI: answered here, so no relying party needs its fixed port.
      await created.route(
        (url) => url.host === '127.0.0.1:5173',
        (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'callback' }),
      );
      return created;
    };
    context = await newContext();
    page = await context.newPage();
    laptop = await (await newContext()).newPage();
  }, 120_000);

  afterAll(async () => {
    await chromiumBrowser?.close();
    await server?.close();
  });

  /** Alice signs in on the login page: the code of the redirect to the spa, or undefined when refused. */
  async function aliceSignsIn(password: string, on = page): Promise<{ code?: string; verifier: string }> {
    const verifier = pkce();
    await on.goto(authorizeUrl(server.url, verifier.challenge, { prompt: 'login' }));
    await on.fill('#username', 'alice');
    await on.fill('#password', password);
    const [answer] = await Promise.all([
      on.waitForResponse((response) => new URL(response.url()).pathname === '/interaction/login'),
      on.click('button[type=submit]'),
    ]);
    if (answer.status() !== 302) {
      await on.waitForSelector('[role=alert]');
      return { verifier: verifier.verifier };
    }
    const location = new URL((await answer.headerValue('location'))!);
    // Let the redirect to the spa's callback finish before the next navigation; then leave its error
    // page (nothing serves the callback), which Chromium would otherwise reload by itself mid-test.
    await on.waitForURL((url) => url.href.startsWith(SPA_CALLBACK) || url.protocol === 'chrome-error:');
    await on.goto('about:blank');
    return { code: location.searchParams.get('code') ?? undefined, verifier: verifier.verifier };
  }

  it('sets a signed HttpOnly SameSite=Lax device cookie at sign-in, naming no user in clear', async () => {
    expect((await aliceSignsIn('alice')).code).toBeDefined();
    expect((await aliceSignsIn('alice', laptop)).code).toBeDefined();
    const device = (await context.cookies(server.url)).find((cookie) => cookie.name === 'tollgate.device');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    expect(device!.value).toMatch(/^d1\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(device!.value).not.toContain('alice');
    const days = (device!.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89);
    expect(days).toBeLessThanOrEqual(90);
  }, 60_000);

  it("never lets failed requests naming the public client spa hold back another browser's code redemption", async () => {
    const { code, verifier } = await aliceSignsIn('alice');
    expect(code).toBeDefined();
    const neighbour = '127.0.0.21';
    for (let i = 0; i < 20; i++) {
      expect((await requestTokenFrom(neighbour, server.url, 'spa', `guess-${i}`, { grant_type: 'authorization_code', code: 'x' })).status).toBe(401);
    }
    for (let i = 0; i < 20; i++) {
      const badCode = await postFormFrom(neighbour, `${server.url}/connect/token`, {
        grant_type: 'authorization_code',
        client_id: 'spa',
        code: `guess-${i}`,
        redirect_uri: SPA_CALLBACK,
        code_verifier: verifier,
      });
      expect(badCode.body).toMatchObject({ error: 'invalid_grant' });
    }
    const redeemed = await postFormFrom(neighbour, `${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: 'spa',
      code: code!,
      redirect_uri: SPA_CALLBACK,
      code_verifier: verifier,
    });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toMatchObject({ token_type: 'Bearer', id_token: expect.any(String) });
  }, 120_000);

  it("lets alice's browser sign her in after neighbours at her address used up every sign-in budget there", async () => {
    // Chromium reaches the server from 127.0.0.1, like these neighbours (one NAT).
    await neighboursGuess((username, password) =>
      requestTokenFrom('127.0.0.1', server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username, password, scope: 'api1' }),
    );
    // A browser without a device cookie at that address is held back like them.
    const stranger = new Browser();
    const { challenge } = pkce();
    const loginPage = await (await stranger.get(authorizeUrl(server.url, challenge))).text();
    const refused = await stranger.submit(server.url, loginPage, { username: 'alice', password: 'alice' });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain('The username or password is incorrect.');

    const { code, verifier } = await aliceSignsIn('alice');
    expect(code).toBeDefined();
    const tokens = await postFormFrom('127.0.0.1', `${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: 'spa',
      code: code!,
      redirect_uri: SPA_CALLBACK,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
  }, 120_000);

  it("holds back a device that fails repeatedly on its own budget, not alice's other devices", async () => {
    for (let i = 0; i < 5; i++) expect((await aliceSignsIn(`wrong-${i}`)).code).toBeUndefined();
    expect((await aliceSignsIn('alice')).code).toBeUndefined();
    expect(await page.textContent('[role=alert]')).toBe('The username or password is incorrect.');
    expect((await aliceSignsIn('alice', laptop)).code).toBeDefined();
  }, 120_000);
});

/** The same over IPv6: neighbours in the browser's /64 (here ::1) cannot hold back its device cookie. */
describe('device cookies over IPv6 (::1)', () => {
  let app: NestFastifyApplication;
  let baseUrl: string;

  beforeAll(async () => {
    app = await createApp(testConfig(DEFAULT_SIGN_IN_THROTTLING));
    await app.listen({ port: 0, host: '::1' });
    baseUrl = `http://[::1]:${(app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(() => app?.close());

  async function signIn(browser: Browser, password: string): Promise<Response> {
    const loginPage = await (await browser.get(authorizeUrl(baseUrl, pkce().challenge, { prompt: 'login' }))).text();
    return browser.submit(baseUrl, loginPage, { username: 'alice', password });
  }

  it("signs alice's browser in after neighbours in its /64 used up the address's budgets, and no other user's browser", async () => {
    const alice = new Browser();
    expect((await signIn(alice, 'alice')).status).toBe(302);
    expect(alice.cookies.get('tollgate.device')).toBeDefined();
    const bob = new Browser();
    const loginPage = await (await bob.get(authorizeUrl(baseUrl, pkce().challenge))).text();
    expect((await bob.submit(baseUrl, loginPage, { username: 'bob', password: 'bob' })).status).toBe(302);

    await neighboursGuess((username, password) =>
      requestToken(baseUrl, 'frontend', 'frontend-secret', { grant_type: 'password', username, password, scope: 'api1' }),
    );
    const signedIn = await signIn(alice, 'alice');
    expect(signedIn.status).toBe(302);
    expect(locationParameters(signedIn)).toMatchObject({ code: expect.any(String), state: 'xyz' });
    // bob's device cookie, presented for alice, counts as none: the address's back-off holds.
    const refused = await signIn(bob, 'alice');
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain('The username or password is incorrect.');
  }, 120_000);
});

describe('device cookies when the issuer is https', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ISSUER: 'https://tollgate.test' });
  });
  afterAll(() => server.close());

  it('names the cookie __Host-tollgate.device and marks it Secure', async () => {
    const browser = new Browser();
    const loginPage = await (await browser.get(authorizeUrl(server.url, pkce().challenge))).text();
    const signedIn = await browser.submit(server.url, loginPage, { username: 'alice', password: 'alice' });
    expect(signedIn.status).toBe(302);
    const device = signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith('__Host-tollgate.device='));
    expect(device).toMatch(/^__Host-tollgate\.device=d1\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}; Max-Age=7776000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(browser.cookies.has('tollgate.device')).toBe(false);
  });
});
