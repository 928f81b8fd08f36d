import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExpiredSignInStatePurger } from '../../src/endpoints/authorize/expired-sign-in-state.purger';
import { builtInViewsDirectory } from '../../src/endpoints/interaction/views-directory';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { Browser, locationParameters, pkce, readForm } from '../support/browser';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { postForm } from '../support/http';

const SPA_REDIRECT = 'http://127.0.0.1:5173/callback';
const GENERIC_FAILURE = 'The username or password is incorrect.';

/** docs/browser-sign-in.md: the login page, the session cookie, silent sign-in, logout. */
describe('sign-in sessions', () => {
  let server: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    other = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    await other.close();
  });

  const authorizeUrl = (extra: Record<string, string> = {}, base = server.url) =>
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

  /** How the database keys a browser's session: SHA-256 of the cookie, base64url (computed here independently). */
  const handleHash = (browser: Browser) => createHash('sha256').update(browser.cookies.get('tollgate.session')!).digest('base64url');

  async function signedIn(username = 'alice', password = username): Promise<{ browser: Browser; redirect: Response }> {
    const browser = new Browser();
    const page = await browser.get(authorizeUrl());
    const redirect = await browser.submit(server.url, await page.text(), { username, password });
    return { browser, redirect };
  }

  describe('login page', () => {
    it('signs in with a session cookie that is HttpOnly, SameSite=Lax and not Secure on an http issuer', async () => {
      const { redirect } = await signedIn();
      expect(redirect.status).toBe(302);
      const cookie = redirect.headers.getSetCookie().find((line) => line.startsWith('tollgate.session='))!;
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Max-Age=28800/);
      expect(cookie).not.toMatch(/; Secure/);
    });

    it.each<[string, string, string]>([
      ['a wrong password', 'alice', 'wrong'],
      ['an unknown user', 'nobody-at-all', 'whatever'],
    ])('shows the form again with one generic message for %s', async (_, username, password) => {
      const { redirect: page } = await signedIn(username, password);
      expect(page.status).toBe(200);
      expect(page.headers.getSetCookie().some((line) => line.startsWith('tollgate.session='))).toBe(false);
      const html = await page.text();
      expect(html).toContain(`<div class="alert" role="alert" id="sign-in-error">${GENERIC_FAILURE}</div>`);
      expect(html).toContain('aria-invalid="true"');
      expect(readForm(html).hidden.client_id).toBe('spa');
    });

    it('refuses a disabled user with the same message', async () => {
      const username = uniqueName('disabled');
      await insertUser({ username, password: 'pw-disabled', enabled: false });
      const { redirect: page } = await signedIn(username, 'pw-disabled');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(GENERIC_FAILURE);
    });

    it('lets the user try again after a wrong password', async () => {
      const browser = new Browser();
      const failed = await browser.submit(server.url, await (await browser.get(authorizeUrl())).text(), { username: 'alice', password: 'nope' });
      const redirect = await browser.submit(server.url, await failed.text(), { username: 'alice', password: 'alice' });
      expect(redirect.status).toBe(302);
      expect(locationParameters(redirect).code).toEqual(expect.any(String));
    });

    it.each<[string, (form: Record<string, string>) => void]>([
      ['no CSRF token', (form) => delete form.csrf_token],
      ["a CSRF token other than the cookie's", (form) => (form.csrf_token = 'A'.repeat(43))],
    ])('refuses a POST with %s', async (_, change) => {
      const browser = new Browser();
      const { hidden } = readForm(await (await browser.get(authorizeUrl())).text());
      const form = { ...hidden, username: 'alice', password: 'alice' };
      change(form);
      const response = await browser.post(`${server.url}/interaction/login`, form);
      expect(response.status).toBe(403);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.getSetCookie().some((line) => line.startsWith('tollgate.session='))).toBe(false);
    });

    it('refuses a POST from a browser that never had the CSRF cookie', async () => {
      const { hidden } = readForm(await (await new Browser().get(authorizeUrl())).text());
      const response = await new Browser().post(`${server.url}/interaction/login`, { ...hidden, username: 'alice', password: 'alice' });
      expect(response.status).toBe(403);
    });

    it('names the client as consent does: by its client_name, else its client_id', async () => {
      const html = await (await new Browser().get(authorizeUrl())).text();
      expect(html).toContain('to continue to <strong>Demo Single-Page App</strong>');
      const unnamed = uniqueName('unnamed');
      await insertClient({
        clientId: unnamed,
        secrets: [],
        public: true,
        grantTypes: ['authorization_code'],
        scopes: ['openid'],
        redirectUris: [SPA_REDIRECT],
      });
      const fallback = await (await new Browser().get(authorizeUrl({ client_id: unnamed }))).text();
      expect(fallback).toContain(`to continue to <strong>${unnamed}</strong>`);
    });

    it('pre-fills the username from login_hint', async () => {
      const html = await (await new Browser().get(authorizeUrl({ login_hint: 'alice"<b>' }))).text();
      expect(html).toContain('value="alice&quot;&lt;b&gt;"');
    });

    it('serves its stylesheet', async () => {
      const response = await fetch(`${server.url}/interaction/tollgate.css`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/css/);
      expect(await response.text()).toContain('.card');
    });
  });

  describe('silent sign-in and re-authentication', () => {
    it('answers prompt=none with a code when the session is usable', async () => {
      const { browser } = await signedIn();
      const response = await browser.get(authorizeUrl({ prompt: 'none' }));
      expect(response.status).toBe(302);
      expect(locationParameters(response)).toEqual({ code: expect.any(String), state: 'st', iss: ISSUER });
    });

    it('shares the session with another instance of the service', async () => {
      const { browser } = await signedIn();
      const response = await browser.get(authorizeUrl({ prompt: 'none' }, other.url));
      expect(response.status).toBe(302);
      expect(locationParameters(response).code).toEqual(expect.any(String));
    });

    it('asks for the password again with prompt=login, and then issues a code', async () => {
      const { browser } = await signedIn();
      const page = await browser.get(authorizeUrl({ prompt: 'login' }));
      expect(page.status).toBe(200);
      const redirect = await browser.submit(server.url, await page.text(), { username: 'alice', password: 'alice' });
      expect(redirect.status).toBe(302);
      expect(locationParameters(redirect).code).toEqual(expect.any(String));
    });

    it('asks for the password again when the sign-in is older than max_age', async () => {
      const { browser } = await signedIn();
      await sql("UPDATE sign_in_sessions SET auth_time = auth_time - interval '120 seconds' WHERE handle_hash = $1", [handleHash(browser)]);
      expect((await browser.get(authorizeUrl({ max_age: '3600' }))).status).toBe(302);
      expect((await browser.get(authorizeUrl({ max_age: '60' }))).status).toBe(200);
      const silent = await browser.get(authorizeUrl({ max_age: '60', prompt: 'none' }));
      expect(locationParameters(silent)).toMatchObject({ error: 'login_required', state: 'st' });
    });

    it('treats an expired session as none, and purges it', async () => {
      const { browser } = await signedIn();
      await sql("UPDATE sign_in_sessions SET expires_at = now() - interval '1 second' WHERE handle_hash = $1", [handleHash(browser)]);
      const silent = await browser.get(authorizeUrl({ prompt: 'none' }));
      expect(locationParameters(silent).error).toBe('login_required');
      const purged = await server.app.get(ExpiredSignInStatePurger).purge();
      expect(purged.sessions).toBeGreaterThanOrEqual(1);
      expect(await sql('SELECT 1 FROM sign_in_sessions WHERE expires_at < now()')).toEqual([]);
    });

    it('treats the session of a user disabled since as none', async () => {
      const username = uniqueName('soon-disabled');
      await insertUser({ username, password: 'pw' });
      const { browser } = await signedIn(username, 'pw');
      await sql('UPDATE users SET enabled = false WHERE username = $1', [username]);
      expect(locationParameters(await browser.get(authorizeUrl({ prompt: 'none' }))).error).toBe('login_required');
    });

    it('stores only the hash of the cookie', async () => {
      const { browser } = await signedIn();
      const handle = browser.cookies.get('tollgate.session')!;
      expect(await sql('SELECT 1 FROM sign_in_sessions WHERE handle_hash = $1 OR session_id = $1', [handle])).toEqual([]);
    });
  });

  describe('response_mode=form_post', () => {
    it('posts code, state and iss to the redirect URI with a nonce-allowed script and a button for no-script browsers', async () => {
      const browser = new Browser();
      const page = await browser.get(authorizeUrl({ response_mode: 'form_post' }));
      const response = await browser.submit(server.url, await page.text(), { username: 'alice', password: 'alice' });
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy')!;
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1];
      expect(csp).toContain("form-action 'self' http://127.0.0.1:5173");
      const html = await response.text();
      expect(html).toContain(`<script nonce="${nonce}">`);
      expect(html).toContain('<button type="submit"');
      const form = readForm(html);
      expect(form.action).toBe(SPA_REDIRECT);
      expect(form.hidden).toEqual({ code: expect.any(String), state: 'st', iss: ISSUER });
    });
  });

  describe('GET /connect/endsession', () => {
    async function signedInWithIdToken(): Promise<{ browser: Browser; idToken: string }> {
      const browser = new Browser();
      const { verifier, challenge } = pkce();
      const page = await browser.get(authorizeUrl({ code_challenge: challenge }));
      const redirect = await browser.submit(server.url, await page.text(), { username: 'alice', password: 'alice' });
      const { code } = locationParameters(redirect);
      const tokens = await postForm(`${server.url}/connect/token`, {
        grant_type: 'authorization_code',
        client_id: 'spa',
        code,
        redirect_uri: SPA_REDIRECT,
        code_verifier: verifier,
      });
      return { browser, idToken: tokens.body.id_token };
    }

    it('ends the session and returns to a registered post-logout redirect URI with state', async () => {
      const { browser, idToken } = await signedInWithIdToken();
      const logout = await browser.get(
        `${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: 'http://127.0.0.1:5173/', state: 'bye' })}`,
      );
      expect(logout.status).toBe(302);
      expect(logout.headers.get('location')).toBe('http://127.0.0.1:5173/?state=bye');
      expect(logout.headers.getSetCookie().find((line) => line.startsWith('tollgate.session='))).toMatch(/Max-Age=0/);
      expect(browser.cookies.has('tollgate.session')).toBe(false);
      const { sid } = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString());
      expect(await sql('SELECT 1 FROM sign_in_sessions WHERE session_id = $1', [sid])).toEqual([]);
    });

    it('ends the session server-side: the old cookie is worthless everywhere', async () => {
      const { browser, idToken } = await signedInWithIdToken();
      const stolen = new Browser();
      stolen.cookies.set('tollgate.session', browser.cookies.get('tollgate.session')!);
      await browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: idToken })}`);
      expect(locationParameters(await stolen.get(authorizeUrl({ prompt: 'none' }, other.url))).error).toBe('login_required');
    });

    // Without id_token_hint the user confirms the logout first (logout-confirmation.e2e-spec.ts).
    it('accepts client_id instead of id_token_hint', async () => {
      const { browser } = await signedIn();
      const confirmation = await browser.get(
        `${server.url}/connect/endsession?${new URLSearchParams({ client_id: 'spa', post_logout_redirect_uri: 'http://127.0.0.1:5173/' })}`,
      );
      const logout = await browser.submit(server.url, await confirmation.text(), {});
      expect(logout.status).toBe(302);
      expect(logout.headers.get('location')).toBe('http://127.0.0.1:5173/');
    });

    it('shows the signed-out page without a post-logout redirect URI', async () => {
      const { browser } = await signedIn();
      const confirmation = await browser.get(`${server.url}/connect/endsession`);
      const logout = await browser.submit(server.url, await confirmation.text(), {});
      expect(logout.status).toBe(200);
      expect(logout.headers.get('x-frame-options')).toBe('DENY');
      expect(logout.headers.get('cache-control')).toBe('no-store');
      expect(await logout.text()).toContain('You are signed out');
      expect(locationParameters(await browser.get(authorizeUrl({ prompt: 'none' }))).error).toBe('login_required');
    });

    it.each<[string, Record<string, string>]>([
      ['an unregistered post-logout redirect URI', { client_id: 'spa', post_logout_redirect_uri: 'https://evil.example/' }],
      ['a post-logout redirect URI of another client', { client_id: 'spa', post_logout_redirect_uri: 'http://127.0.0.1:5174/' }],
      ['a post-logout redirect URI with no client named', { post_logout_redirect_uri: 'http://127.0.0.1:5173/' }],
      [
        'an id_token_hint that is not an ID token of ours',
        { id_token_hint: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', post_logout_redirect_uri: 'http://127.0.0.1:5173/' },
      ],
    ])('refuses %s on a 400 page, and keeps the session', async (_, parameters) => {
      const { browser } = await signedIn();
      const logout = await browser.get(`${server.url}/connect/endsession?${new URLSearchParams(parameters)}`);
      expect(logout.status).toBe(400);
      expect(logout.headers.get('location')).toBeNull();
      expect(await logout.text()).toContain('role="alert"');
      expect((await browser.get(authorizeUrl({ prompt: 'none' }))).status).toBe(302);
      expect(locationParameters(await browser.get(authorizeUrl({ prompt: 'none' }))).code).toEqual(expect.any(String));
    });

    it('refuses an access token as id_token_hint', async () => {
      const { browser } = await signedIn();
      const token = (
        await postForm(`${server.url}/connect/token`, {
          grant_type: 'password',
          username: 'alice',
          password: 'alice',
          client_id: 'frontend',
          client_secret: 'frontend-secret',
        })
      ).body.access_token;
      const logout = await browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: token })}`);
      expect(logout.status).toBe(400);
    });
  });

  describe('sign-in back-off (docs/throttling.md)', () => {
    it('answers a pair in back-off like a wrong password, the right password included, and leaves other users alone', async () => {
      const throttled = await startTestServer({ SIGN_IN_FAILURES_BEFORE_BACKOFF: '3', SIGN_IN_BACKOFF_SECONDS: '60' });
      try {
        const username = uniqueName('guessed');
        await insertUser({ username, password: 'right-password' });
        const attempt = async (user: string, password: string) => {
          const browser = new Browser();
          const page = await browser.get(authorizeUrl({}, throttled.url));
          return browser.submit(throttled.url, await page.text(), { username: user, password });
        };
        for (let failure = 0; failure < 3; failure++) expect((await attempt(username, 'wrong')).status).toBe(200);
        const inBackOff = await attempt(username, 'right-password');
        expect(inBackOff.status).toBe(200);
        expect(inBackOff.headers.getSetCookie().some((line) => line.startsWith('tollgate.session='))).toBe(false);
        expect(await inBackOff.text()).toContain(GENERIC_FAILURE);
        expect((await attempt('alice', 'alice')).status).toBe(302);
      } finally {
        await throttled.close();
      }
    });
  });

  describe('configuration', () => {
    it('sets Secure on the cookies when the issuer is https', async () => {
      const https = await startTestServer({ ISSUER: 'https://tollgate.example' });
      try {
        const browser = new Browser();
        const page = await browser.get(authorizeUrl({}, https.url));
        // With an https issuer the cookies are __Host- cookies (csrf-binding.e2e-spec.ts).
        expect(page.headers.getSetCookie().find((line) => line.startsWith('__Host-tollgate.presession='))).toMatch(/; Secure/);
        const redirect = await browser.submit(https.url, await page.text(), { username: 'alice', password: 'alice' });
        expect(redirect.headers.getSetCookie().find((line) => line.startsWith('__Host-tollgate.session='))).toMatch(/; Secure/);
      } finally {
        await https.close();
      }
    });

    it('uses SESSION_LIFETIME_SECONDS for the session and its cookie', async () => {
      const short = await startTestServer({ SESSION_LIFETIME_SECONDS: '600' });
      try {
        const browser = new Browser();
        const page = await browser.get(authorizeUrl({}, short.url));
        const redirect = await browser.submit(short.url, await page.text(), { username: 'alice', password: 'alice' });
        expect(redirect.headers.getSetCookie().find((line) => line.startsWith('tollgate.session='))).toMatch(/; Max-Age=600/);
        const [row] = await sql<{ seconds: number }>(
          'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM sign_in_sessions ORDER BY created_at DESC LIMIT 1',
        );
        expect(row.seconds).toBeGreaterThanOrEqual(599);
        expect(row.seconds).toBeLessThanOrEqual(601);
      } finally {
        await short.close();
      }
    });

    it("renders the operator's templates and stylesheet from INTERACTION_VIEWS_DIR", async () => {
      const directory = await mkdtemp(join(tmpdir(), 'tollgate-views-'));
      await cp(builtInViewsDirectory(), directory, { recursive: true });
      const login = await readFile(join(directory, 'login.eta'), 'utf8');
      await writeFile(join(directory, 'login.eta'), login.replace('<h1 id="page-title">Sign in</h1>', '<h1 id="page-title">Welcome to Example Corp</h1>'));
      await writeFile(join(directory, 'tollgate.css'), 'body { background: rebeccapurple; }');
      const custom = await startTestServer({ INTERACTION_VIEWS_DIR: directory });
      try {
        expect(await (await new Browser().get(authorizeUrl({}, custom.url))).text()).toContain('Welcome to Example Corp');
        expect(await (await fetch(`${custom.url}/interaction/tollgate.css`)).text()).toBe('body { background: rebeccapurple; }');
      } finally {
        await custom.close();
        await rm(directory, { recursive: true });
      }
    });

    it('refuses to start with a views directory that lacks a template', async () => {
      const directory = await mkdtemp(join(tmpdir(), 'tollgate-views-'));
      try {
        await expect(startTestServer({ INTERACTION_VIEWS_DIR: directory })).rejects.toThrow(/lacks layout\.eta, login\.eta/);
      } finally {
        await rm(directory, { recursive: true });
      }
    });
  });
});
