import { createHash, randomBytes } from 'node:crypto';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { Browser, locationParameters, pkce } from '../support/browser';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { basic, jwtPayload, postForm, request, requestToken } from '../support/http';
import { ACCESS_TOKEN_TYPE, API1, introspect, passwordTokens, TOKEN_EXCHANGE } from '../support/token-lifecycle';

const CALLBACK = 'http://127.0.0.1:5190/callback';
const PASSKEY = ['hwk', 'user'];

/**
 * docs/passkeys.md over HTTP: the authentication context in tokens and introspection, kept through
 * delegation and token exchange, and the authorization endpoint's step-up decisions (RFC 9470). A
 * browser's session is arranged in the database as a sign-in would leave it (the passkey ceremonies
 * themselves are in passkeys-chromium.e2e-spec.ts).
 */
describe('authentication context and step-up', () => {
  let server: TestServer;
  const clientId = uniqueName('step-up-spa');
  const phrClientId = uniqueName('phr-spa');

  beforeAll(async () => {
    server = await startTestServer();
    for (const id of [clientId, phrClientId]) {
      await insertClient({
        clientId: id,
        secrets: [],
        public: true,
        grantTypes: ['authorization_code'],
        scopes: ['openid', 'profile', 'api1'],
        redirectUris: [CALLBACK],
      });
    }
    await sql('UPDATE clients SET require_phr = true WHERE client_id = $1', [phrClientId]);
  });
  afterAll(() => server.close());

  /** A browser holding a session of `subject`, signed in with `methods` a minute ago. */
  async function browserSignedIn(subject: string, methods: readonly string[]): Promise<Browser> {
    const browser = new Browser();
    const handle = randomBytes(32).toString('base64url');
    await sql(
      `INSERT INTO sign_in_sessions (handle_hash, session_id, subject_id, auth_time, authentication_methods, expires_at)
       VALUES ($1, $2, $3, now() - interval '1 minute', $4, now() + interval '1 hour')`,
      [createHash('sha256').update(handle).digest('base64url'), randomBytes(16).toString('base64url'), subject, methods],
    );
    browser.cookies.set('tollgate.session', handle);
    return browser;
  }

  async function userWithPasskeys(count: number): Promise<string> {
    const subject = await insertUser({ username: uniqueName('stepper'), password: 'pw' });
    for (let i = 0; i < count; i++) {
      await sql("INSERT INTO passkeys (credential_id, subject_id, user_handle, public_key, name) VALUES ($1, $2, 'handle', '\\x00', 'key')", [
        randomBytes(16).toString('base64url'),
        subject,
      ]);
    }
    return subject;
  }

  function authorize(browser: Browser, extra: Record<string, string> = {}, client = clientId): Promise<{ response: Response; verifier: string }> {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      client_id: client,
      response_type: 'code',
      scope: 'openid profile api1',
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    return browser.get(`${server.url}/connect/authorize?${query}`).then((response) => ({ response, verifier }));
  }

  async function tokens(browser: Browser, extra: Record<string, string> = {}): Promise<{ access_token: string; id_token: string }> {
    const { response, verifier } = await authorize(browser, extra);
    const { code } = locationParameters(response);
    const redeemed = await postForm(`${server.url}/connect/token`, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier });
    expect(redeemed.status).toBe(200);
    return redeemed.body;
  }

  describe('tokens', () => {
    it('gives a password grant token acr pwd, and a client token no acr', async () => {
      expect(jwtPayload((await passwordTokens(server.url, 'api1')).access_token)).toMatchObject({ acr: 'pwd', amr: ['pwd'] });
      const client = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
      expect(jwtPayload(client.body.access_token).acr).toBeUndefined();
    });

    it("keeps a passkey sign-in's acr and auth_time in the ID token, the access token, its introspection, delegated and exchanged tokens", async () => {
      const subject = await userWithPasskeys(1);
      const { access_token: accessToken, id_token: idToken } = await tokens(await browserSignedIn(subject, PASSKEY));
      const signIn = jwtPayload(idToken);
      expect(signIn).toMatchObject({ acr: 'phr', amr: PASSKEY, auth_time: expect.any(Number) });
      expect(jwtPayload(accessToken)).toMatchObject({ acr: 'phr', amr: PASSKEY, auth_time: signIn.auth_time });

      const introspected = await introspect(server.url, API1, { token: accessToken });
      expect(introspected.body).toMatchObject({ active: true, sub: subject, acr: 'phr', auth_time: signIn.auth_time });

      const delegated = await requestToken(server.url, API1.clientId, API1.secret, { grant_type: 'delegation', token: accessToken, scope: 'api2' });
      expect(delegated.status).toBe(200);
      expect(jwtPayload(delegated.body.access_token)).toMatchObject({
        acr: 'phr',
        auth_time: signIn.auth_time,
        amr: ['delegation'],
        act: { client_id: 'api1' },
      });

      const exchanged = await requestToken(server.url, API1.clientId, API1.secret, {
        grant_type: TOKEN_EXCHANGE,
        subject_token: accessToken,
        subject_token_type: ACCESS_TOKEN_TYPE,
        scope: 'api2',
      });
      expect(exchanged.status).toBe(200);
      expect(jwtPayload(exchanged.body.access_token)).toMatchObject({ acr: 'phr', auth_time: signIn.auth_time });
    });

    it('advertises acr_values_supported and the claims parameter in discovery', async () => {
      const discovery = await request(`${server.url}/.well-known/openid-configuration`);
      expect(discovery.body).toMatchObject({
        acr_values_supported: ['pwd', 'phr'],
        claims_parameter_supported: true,
        claims_supported: expect.arrayContaining(['acr']),
      });
    });
  });

  describe('step-up at the authorization endpoint', () => {
    it('answers a password session asked for phr with unmet_authentication_requirements when the user has no passkey', async () => {
      const browser = await browserSignedIn(await userWithPasskeys(0), ['pwd']);
      const { response } = await authorize(browser, { acr_values: 'phr' });
      expect(response.status).toBe(302);
      expect(locationParameters(response)).toMatchObject({ error: 'unmet_authentication_requirements', state: 's1', iss: 'http://tollgate.test' });
    });

    it('answers the same in a pushed request, and for an essential acr claim of values it does not know', async () => {
      const browser = await browserSignedIn(await userWithPasskeys(0), ['pwd']);
      const { challenge } = pkce();
      const pushed = await postForm(`${server.url}/connect/par`, {
        client_id: clientId,
        response_type: 'code',
        scope: 'openid',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        acr_values: 'phr',
      });
      expect(pushed.status).toBe(201);
      const fromPushed = await browser.get(
        `${server.url}/connect/authorize?${new URLSearchParams({ client_id: clientId, request_uri: pushed.body.request_uri })}`,
      );
      expect(locationParameters(fromPushed)).toMatchObject({ error: 'unmet_authentication_requirements' });
      const claims = JSON.stringify({ id_token: { acr: { essential: true, values: ['urn:example:loa:4'] } } });
      expect(locationParameters((await authorize(browser, { claims })).response)).toMatchObject({ error: 'unmet_authentication_requirements' });
    });

    it('shows a password session of a user with a passkey the step-up page, without ending the session; prompt=none is login_required', async () => {
      const browser = await browserSignedIn(await userWithPasskeys(1), ['pwd']);
      const session = browser.cookies.get('tollgate.session');
      const { response } = await authorize(browser, { acr_values: 'phr' });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toContain('Confirm it is you');
      expect(browser.cookies.get('tollgate.session')).toBe(session);
      expect(locationParameters((await authorize(browser, { acr_values: 'phr', prompt: 'none' })).response)).toMatchObject({ error: 'login_required' });
    });

    it('lets the user cancel the step-up: access_denied at the redirect URI, the session kept', async () => {
      const browser = await browserSignedIn(await userWithPasskeys(1), ['pwd']);
      const session = browser.cookies.get('tollgate.session');
      const page = await (await authorize(browser, { acr_values: 'phr' })).response.text();
      expect(page).toContain('>Cancel</button>');
      const cancelled = await browser.submit(server.url, page, { decision: 'cancel' });
      expect(cancelled.status).toBe(302);
      expect(locationParameters(cancelled)).toEqual({
        error: 'access_denied',
        error_description: expect.any(String),
        state: 's1',
        iss: 'http://tollgate.test',
      });
      expect(browser.cookies.get('tollgate.session')).toBe(session);
    });

    it('asks for phr for every sign-in of a client registered so, and lets acr_values=pwd pass a password session', async () => {
      const browser = await browserSignedIn(await userWithPasskeys(1), ['pwd']);
      const { response } = await authorize(browser, { acr_values: 'pwd' }, phrClientId);
      expect(await response.text()).toContain('Confirm it is you');
      expect(jwtPayload((await tokens(browser, { acr_values: 'pwd' })).id_token)).toMatchObject({ acr: 'pwd' });
    });

    it('refuses a step-up form without the CSRF token of the session, from the session or from another browser', async () => {
      const browser = await browserSignedIn(await userWithPasskeys(1), ['pwd']);
      const form = {
        client_id: clientId,
        response_type: 'code',
        scope: 'openid',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        acr_values: 'phr',
      };
      expect((await browser.post(`${server.url}/interaction/step-up`, { ...form, csrf_token: 'x'.repeat(43), credential: '{}' })).status).toBe(403);
      const stranger = new Browser();
      expect((await stranger.post(`${server.url}/interaction/step-up`, { ...form, credential: '{}' })).status).toBe(403);
    });
  });

  describe('at the device verification page', () => {
    const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';

    /** The demo's `tv` asks for a device code with `acr_values`; the signed-in browser enters its user code. */
    async function enterCode(browser: Browser): Promise<{ page: Response; deviceCode: string }> {
      const started = await postForm(`${server.url}/connect/deviceauthorization`, { client_id: 'tv', scope: 'openid', acr_values: 'phr' });
      expect(started.status).toBe(200);
      const entry = await browser.get(`${server.url}/connect/device?user_code=${started.body.user_code}`);
      const page = await browser.submit(server.url, await entry.text(), { user_code: started.body.user_code });
      return { page, deviceCode: started.body.device_code };
    }

    it('denies a request asking for phr when the user has no passkey: the device is told access_denied', async () => {
      const { page, deviceCode } = await enterCode(await browserSignedIn(await userWithPasskeys(0), ['pwd']));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('your account has none');
      const poll = await postForm(`${server.url}/connect/token`, { grant_type: DEVICE_CODE, device_code: deviceCode, client_id: 'tv' });
      expect(poll.body.error).toBe('access_denied');
    });

    it('asks a password session of a user with a passkey for it first; a passkey session goes on to consent', async () => {
      const { page } = await enterCode(await browserSignedIn(await userWithPasskeys(1), ['pwd']));
      const text = await page.text();
      expect(text).toContain('Confirm it is you');
      // The device flow has no redirect URI to tell; closing the page leaves the device to its code's expiry.
      expect(text).not.toContain('>Cancel</button>');
      const stepped = await enterCode(await browserSignedIn(await userWithPasskeys(1), PASSKEY));
      expect(await stepped.page.text()).toContain('Allow access?');
    });
  });

  describe('introspection of refresh tokens', () => {
    it('gives the acr of the sign-in', async () => {
      const { refresh_token: refreshToken } = await passwordTokens(server.url, 'openid offline_access');
      const introspected = await postForm(
        `${server.url}/connect/introspect`,
        { token: refreshToken! },
        { authorization: basic('frontend', 'frontend-secret') },
      );
      expect(introspected.body).toMatchObject({ active: true, acr: 'pwd' });
    });
  });
});
