import * as oidc from 'openid-client';
import { RecordingAuditSink } from '../../src/platform/audit/recording-audit.sink';
import { hashHandle } from '../../src/protocol/opaque-handle';
import { Browser } from '../support/browser';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { jwtPayload, postForm, type HttpResponse } from '../support/http';

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

interface TestUser {
  readonly username: string;
  readonly password: string;
  readonly subject: string;
}

/** The device authorization grant (RFC 8628, docs/device-authorization.md) for the demo client `tv`. */
describe('device authorization grant', () => {
  let server: TestServer;
  const audit = new RecordingAuditSink();
  beforeAll(async () => {
    server = await startTestServer({}, { auditSink: audit });
  });
  afterAll(() => server.close());

  const start = (form: Record<string, string | string[]> = { client_id: 'tv', scope: 'openid profile api1 offline_access' }) =>
    postForm(`${server.url}/connect/deviceauthorization`, form);
  const poll = (deviceCode: string) => postForm(`${server.url}/connect/token`, { grant_type: DEVICE_CODE, device_code: deviceCode, client_id: 'tv' });
  const local = (url: string) => url.replace(ISSUER, server.url);
  const expectError = (response: HttpResponse, error: string, status = 400) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({ error, error_description: expect.any(String) });
  };

  async function newUser(): Promise<TestUser> {
    const username = uniqueName('viewer');
    const subject = await insertUser({ username, password: 'pw' });
    return { username, password: 'pw', subject };
  }

  async function started(): Promise<{ device_code: string; user_code: string; verification_uri_complete: string }> {
    const response = await start();
    expect(response.status).toBe(200);
    return response.body;
  }

  /** Opens the verification page (with the code prefilled, or not) and signs in: the code form. */
  async function signedIn(user: TestUser, userCode = ''): Promise<{ browser: Browser; html: string }> {
    const browser = new Browser();
    const page = await browser.get(`${server.url}/connect/device${userCode ? `?user_code=${encodeURIComponent(userCode)}` : ''}`);
    expect(page.status).toBe(200);
    const login = await page.text();
    expect(login).toContain('name="username"');
    const entry = await browser.submit(server.url, login, { username: user.username, password: user.password });
    expect(entry.status).toBe(200);
    const html = await entry.text();
    expect(html).toContain('name="user_code"');
    return { browser, html };
  }

  const enter = (browser: Browser, html: string, userCode: string) => browser.submit(server.url, html, { user_code: userCode });

  /** Enters the code and answers the consent page. */
  async function answer(browser: Browser, html: string, userCode: string, decision: 'allow' | 'deny'): Promise<string> {
    const consent = await enter(browser, html, userCode);
    expect(consent.status).toBe(200);
    const consentHtml = await consent.text();
    expect(consentHtml).toContain('Demo TV');
    expect(consentHtml).toContain('name="decision"');
    const done = await browser.submit(server.url, consentHtml, { decision });
    expect(done.status).toBe(200);
    return done.text();
  }

  describe('with openid-client', () => {
    const routeToTestServer: oidc.CustomFetch = (url, options) => fetch(local(url), options as RequestInit);

    it('starts on the device, is approved on the pages, and polls its tokens once', async () => {
      const config = await oidc.discovery(new URL(ISSUER), 'tv', undefined, oidc.None(), {
        [oidc.customFetch]: routeToTestServer,
        execute: [oidc.allowInsecureRequests],
      });
      const metadata = config.serverMetadata();
      expect(metadata.device_authorization_endpoint).toBe(`${ISSUER}/connect/deviceauthorization`);
      expect(metadata.grant_types_supported).toContain(DEVICE_CODE);

      const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile api1 offline_access' });
      expect(device.user_code).toMatch(USER_CODE);
      expect(device.verification_uri).toBe(`${ISSUER}/connect/device`);
      expect(device.verification_uri_complete).toBe(`${ISSUER}/connect/device?user_code=${device.user_code}`);
      expect(device.expires_in).toBe(600);
      expect(device.interval).toBe(5);
      expect(device.device_code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Only the device code's hash is stored.
      expect(await sql('SELECT 1 FROM device_authorizations WHERE device_code_hash = $1', [hashHandle(device.device_code)])).toHaveLength(1);
      expect(await sql('SELECT 1 FROM device_authorizations WHERE device_code_hash = $1', [device.device_code])).toHaveLength(0);

      const user = await newUser();
      const { browser, html } = await signedIn(user, device.verification_uri_complete!.split('user_code=')[1]);
      expect(html).toContain(`value="${device.user_code}"`);
      expect(await answer(browser, html, device.user_code, 'allow')).toContain('Device connected');
      expect(audit.events).toContainEqual({ name: 'device_authorization.answered', clientId: 'tv', subject: user.subject, approved: true });

      const tokens = await oidc.pollDeviceAuthorizationGrant(config, device);
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      expect(tokens.scope).toBe('openid profile api1 offline_access');
      expect(tokens.refresh_token).toEqual(expect.any(String));
      expect(tokens.claims()).toMatchObject({ sub: user.subject, aud: 'tv', iss: ISSUER, sid: expect.any(String) });
      expect(jwtPayload(tokens.access_token)).toMatchObject({ sub: user.subject, client_id: 'tv', scope: 'openid profile api1 offline_access' });

      // The code gave its tokens once.
      expectError(await poll(device.device_code), 'invalid_grant');
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(jwtPayload(refreshed.access_token).sub).toBe(user.subject);
    }, 30_000);
  });

  describe('the device authorization endpoint', () => {
    it('refuses what the client may not ask', async () => {
      expectError(await start({ client_id: 'tv', scope: 'email' }), 'invalid_scope');
      expectError(await start({ client_id: 'tv', scope: 'nonsense' }), 'invalid_scope');
      expectError(await start({ client_id: 'spa', scope: 'openid' }), 'unauthorized_client');
      expectError(await start({ client_id: 'no-such-client' }), 'invalid_client', 401);
      expectError(await start({ client_id: 'tv', scope: ['openid', 'profile'] }), 'invalid_request');
    });

    it('defaults the scope to the client’s, without offline_access', async () => {
      const { body } = await start({ client_id: 'tv' });
      const [row] = await sql<{ scopes: string[] }>('SELECT scopes FROM device_authorizations WHERE device_code_hash = $1', [hashHandle(body.device_code)]);
      expect(row.scopes).toEqual(['openid', 'profile', 'api1']);
    });
  });

  describe('polling', () => {
    it('answers authorization_pending, then slow_down to a client polling faster than the interval', async () => {
      const { device_code } = await started();
      expectError(await poll(device_code), 'authorization_pending');
      expectError(await poll(device_code), 'slow_down');
      const [row] = await sql<{ interval_seconds: number }>('SELECT interval_seconds FROM device_authorizations WHERE device_code_hash = $1', [
        hashHandle(device_code),
      ]);
      expect(row.interval_seconds).toBe(10);
    });

    it('answers access_denied when the user denies', async () => {
      const { device_code, user_code } = await started();
      const { browser, html } = await signedIn(await newUser());
      expect(await answer(browser, html, user_code.toLowerCase(), 'deny')).toContain('Access denied');
      expectError(await poll(device_code), 'access_denied');
    });

    it('answers expired_token once the code has expired, and the page no longer takes it', async () => {
      const { device_code, user_code } = await started();
      await sql("UPDATE device_authorizations SET expires_at = now() - interval '1 second' WHERE device_code_hash = $1", [hashHandle(device_code)]);
      expectError(await poll(device_code), 'expired_token');
      const { browser, html } = await signedIn(await newUser());
      const entry = await enter(browser, html, user_code);
      expect(entry.status).toBe(200);
      expect(await entry.text()).toContain('not valid or has expired');
    });

    it('answers invalid_grant to an unknown, malformed or missing device code', async () => {
      expectError(await poll('A'.repeat(43)), 'invalid_grant');
      expectError(await poll('not a code'), 'invalid_grant');
      expectError(await postForm(`${server.url}/connect/token`, { grant_type: DEVICE_CODE, client_id: 'tv' }), 'invalid_request');
    });

    it('issues once for one approval, and remembers the consent', async () => {
      const user = await newUser();
      const first = await started();
      const { browser, html } = await signedIn(user);
      await answer(browser, html, first.user_code, 'allow');
      // The same user on a second device: consent remembered, and still a page naming the client
      // to confirm on (RFC 8628 §5.4): entering a code alone approves nothing.
      const second = await started();
      expect(await answer(browser, html, second.user_code.replace('-', ''), 'allow')).toContain('Device connected');
      for (const { device_code } of [first, second]) {
        const tokens = await poll(device_code);
        expect(tokens.status).toBe(200);
        expect(jwtPayload(tokens.body.id_token).sub).toBe(user.subject);
        expectError(await poll(device_code), 'invalid_grant');
      }
    });
  });

  describe('confirming a code (RFC 8628 §5.4: a phished code must not be approved unseen)', () => {
    it('names the client and asks for a decision even when consent is remembered; entering the code approves nothing', async () => {
      const user = await newUser();
      const { browser, html } = await signedIn(user);
      await answer(browser, html, (await started()).user_code, 'allow');
      // A code the user was tricked into entering, for the same client and scopes.
      const phished = await started();
      const confirmation = await enter(browser, html, phished.user_code);
      expect(confirmation.status).toBe(200);
      const page = await confirmation.text();
      expect(page).toContain('Demo TV');
      expect(page).toContain('name="decision" value="allow"');
      expect(page).toContain('name="decision" value="deny"');
      expect(page).toContain(phished.user_code);
      expectError(await poll(phished.device_code), 'authorization_pending');
      expect(await (await browser.submit(server.url, page, { decision: 'deny' })).text()).toContain('Access denied');
      expectError(await poll(phished.device_code), 'access_denied');
    });

    it('asks for the same confirmation for a client that does not require consent', async () => {
      const clientId = uniqueName('first-party-tv');
      await insertClient({ clientId, secrets: [], public: true, grantTypes: [DEVICE_CODE], scopes: ['openid', 'api1'], requireConsent: false });
      const device = await start({ client_id: clientId, scope: 'openid api1' });
      expect(device.status).toBe(200);
      const { browser, html } = await signedIn(await newUser());
      const confirmation = await enter(browser, html, device.body.user_code);
      const page = await confirmation.text();
      expect(page).toContain(clientId);
      expect(page).toContain('name="decision" value="allow"');
      expectError(
        await postForm(`${server.url}/connect/token`, { grant_type: DEVICE_CODE, device_code: device.body.device_code, client_id: clientId }),
        'authorization_pending',
      );
      expect(await (await browser.submit(server.url, page, { decision: 'allow' })).text()).toContain('Device connected');
      const tokens = await postForm(`${server.url}/connect/token`, { grant_type: DEVICE_CODE, device_code: device.body.device_code, client_id: clientId });
      expect(tokens.status).toBe(200);
    });
  });

  describe('the verification page', () => {
    it('has the sign-in pages’ look and security headers', async () => {
      const response = await new Browser().get(`${server.url}/connect/device?user_code=BCDF-GHJK`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('content-security-policy')).toContain("script-src 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const html = await response.text();
      expect(html).toContain('/interaction/tollgate.css');
      expect(html).toContain('name="user_code" value="BCDF-GHJK"');
      expect(html).toContain('action="/connect/device/login"');
    });

    it('refuses forms without the matching CSRF token', async () => {
      const { device_code, user_code } = await started();
      const login = new Browser();
      await login.get(`${server.url}/connect/device`);
      const user = await newUser();
      expect((await login.post(`${server.url}/connect/device/login`, { username: user.username, password: user.password })).status).toBe(403);
      const { browser, html } = await signedIn(user);
      expect((await browser.post(`${server.url}/connect/device`, { user_code, csrf_token: 'A'.repeat(43) })).status).toBe(403);
      const consent = await enter(browser, html, user_code);
      expect(consent.status).toBe(200);
      expect((await browser.post(`${server.url}/connect/device/consent`, { user_code, decision: 'allow' })).status).toBe(403);
      expectError(await poll(device_code), 'authorization_pending');
    });

    it('answers the login page’s passkey form: 403 without its CSRF token, the login page with one message for a passkey that cannot be used', async () => {
      const browser = new Browser();
      const login = await (await browser.get(`${server.url}/connect/device?user_code=BCDF-GHJK`)).text();
      const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(login)?.[1] ?? '';
      expect(csrfToken).not.toBe('');
      expect((await browser.post(`${server.url}/connect/device/passkey`, { user_code: 'BCDF-GHJK', credential: '{}' })).status).toBe(403);
      const failed = await browser.post(`${server.url}/connect/device/passkey`, {
        csrf_token: csrfToken,
        user_code: 'BCDF-GHJK',
        credential: '{"id":"unknown"}',
      });
      expect(failed.status).toBe(200);
      const html = await failed.text();
      expect(html).toContain('The passkey could not be used to sign in.');
      expect(html).not.toContain('The username or password is incorrect.');
      expect(html).toContain('name="user_code" value="BCDF-GHJK"');
      expect(browser.cookies.has('tollgate.session')).toBe(false);
    });

    it('throttles one user’s wrong codes without holding back another user', async () => {
      const { device_code, user_code } = await started();
      const guesser = await signedIn(await newUser());
      for (let i = 0; i < 10; i++) {
        const wrong = await enter(guesser.browser, guesser.html, 'BBBB-BBBB');
        expect(wrong.status).toBe(200);
        expect(await wrong.text()).toContain('not valid or has expired');
      }
      const blocked = await enter(guesser.browser, guesser.html, user_code);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await blocked.text()).toContain('Too many wrong codes');
      // Its consent form is held back too: no guessing through it.
      expect(
        (await guesser.browser.submit(server.url, guesser.html.replace('/connect/device"', '/connect/device/consent"'), { user_code, decision: 'deny' }))
          .status,
      ).toBe(429);

      const owner = await signedIn(await newUser(), user_code);
      expect(await answer(owner.browser, owner.html, user_code, 'allow')).toContain('Device connected');
      expect((await poll(device_code)).status).toBe(200);
    });

    it('checks at most 10 of 200 wrong codes one user sends at once', async () => {
      const guesser = await signedIn(await newUser());
      const answers = await Promise.all(Array.from({ length: 200 }, () => enter(guesser.browser, guesser.html, 'BBBB-BBBB')));
      const pages = await Promise.all(answers.map(async (answer) => ({ status: answer.status, html: await answer.text() })));
      const checked = pages.filter(({ status, html }) => status === 200 && html.includes('not valid or has expired'));
      const throttled = pages.filter(({ status, html }) => status === 429 && html.includes('Too many wrong codes'));
      expect(checked.length).toBeLessThanOrEqual(10);
      expect(checked.length + throttled.length).toBe(200);
    }, 60_000);

    it('does not take a code answered already', async () => {
      const { user_code } = await started();
      const { browser, html } = await signedIn(await newUser());
      await answer(browser, html, user_code, 'allow');
      expect(await (await enter(browser, html, user_code)).text()).toContain('not valid or has expired');
    });
  });
});
