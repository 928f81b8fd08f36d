import { createHash } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { Browser, locationParameters, pkce, readForm } from '../support/browser';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { basic, jwtPayload, postForm, request } from '../support/http';

const SPA = { clientId: 'spa', redirectUri: 'http://127.0.0.1:5173/callback' };
const WEBAPP = { clientId: 'webapp', redirectUri: 'http://127.0.0.1:5174/callback', secret: 'webapp-secret' };

/** docs/browser-sign-in.md: the authorization endpoint, login and consent pages, and code redemption. */
describe('authorization code flow', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const authorizeUrl = (parameters: Record<string, string>, base = server.url) => `${base}/connect/authorize?${new URLSearchParams(parameters)}`;

  /** A complete authorization request of `client`, with PKCE; `extra` adds or replaces parameters. */
  function authorizationRequest(client: { clientId: string; redirectUri: string } = SPA, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const parameters: Record<string, string> = {
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      response_type: 'code',
      scope: 'openid profile',
      state: 'state-1',
      nonce: 'nonce-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    };
    return { parameters, verifier };
  }

  async function signIn(browser: Browser, loginPage: Response, username = 'alice', password = username): Promise<Response> {
    expect(loginPage.status).toBe(200);
    return browser.submit(server.url, await loginPage.text(), { username, password });
  }

  /** Signs alice in through the spa client and returns the code's redirect and the verifier. */
  async function spaCode(browser = new Browser(), extra: Record<string, string> = {}) {
    const { parameters, verifier } = authorizationRequest(SPA, extra);
    const redirect = await signIn(browser, await browser.get(authorizeUrl(parameters)));
    expect(redirect.status).toBe(302);
    const { code, state, iss } = locationParameters(redirect);
    return { browser, verifier, code, state, iss };
  }

  const redeemAsSpa = (code: string, verifier: string, extra: Record<string, string> = {}) =>
    postForm(`${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: 'spa',
      code,
      redirect_uri: SPA.redirectUri,
      code_verifier: verifier,
      ...extra,
    });

  describe('spa (public client, first party)', () => {
    it('shows a login page that works without JavaScript, framed by nothing and cached by no one', async () => {
      const response = await new Browser().get(authorizeUrl(authorizationRequest().parameters));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'none'");
      expect(csp).toContain("default-src 'none'");
      const html = await response.text();
      expect(html).not.toMatch(/<script/);
      expect(html.match(/<form\b/g)).toHaveLength(1);
      expect(html).toMatch(/<form method="post" action="\/interaction\/login"/);
      expect(html).toMatch(/<label for="username">/);
      expect(html).toMatch(/<input id="username" name="username"/);
      expect(html).toMatch(/<input id="password" name="password" type="password"/);
      expect(readForm(html).hidden.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('redirects with code, state and iss after alice signs in', async () => {
      const { code, state, iss } = await spaCode();
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(state).toBe('state-1');
      expect(iss).toBe(ISSUER);
    });

    it('exchanges the code with client_id only for an access token and an ID token', async () => {
      const before = Math.floor(Date.now() / 1000);
      const { code, verifier } = await spaCode();
      const response = await redeemAsSpa(code, verifier);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.body).toMatchObject({ token_type: 'Bearer', scope: 'openid profile', expires_in: 3600 });
      expect(response.body.refresh_token).toBeUndefined();

      const access = jwtPayload(response.body.access_token);
      expect(access).toMatchObject({ iss: ISSUER, sub: '1', client_id: 'spa', scope: 'openid profile', amr: ['pwd'], acr: 'pwd' });
      expect(access.auth_time).toBeGreaterThanOrEqual(before);

      const idToken = response.body.id_token;
      expect(decodeProtectedHeader(idToken)).toMatchObject({ typ: 'JWT', alg: 'RS256', kid: expect.any(String) });
      const claims = jwtPayload(idToken);
      expect(claims).toEqual({
        iss: ISSUER,
        sub: '1',
        aud: 'spa',
        azp: 'spa',
        iat: expect.any(Number),
        exp: claims.iat + 300,
        auth_time: access.auth_time,
        amr: ['pwd'],
        acr: 'pwd',
        sid: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        nonce: 'nonce-1',
        at_hash: createHash('sha256').update(response.body.access_token).digest().subarray(0, 16).toString('base64url'),
      });

      const userinfo = await request(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${response.body.access_token}` } });
      expect(userinfo.status).toBe(200);
      expect(userinfo.body).toMatchObject({ sub: '1', name: 'Alice Smith' });
    });
  });

  describe('delegation from a browser sign-in (README walk-through)', () => {
    it("lets API 1 exchange the spa token of alice's sign-in for an API 2 token that keeps her auth_time", async () => {
      const { code, verifier } = await spaCode(new Browser(), { scope: 'openid profile email api1' });
      const user = await redeemAsSpa(code, verifier);
      expect(jwtPayload(user.body.access_token).aud).toBe('api1');
      const exchanged = await postForm(
        `${server.url}/connect/token`,
        {
          grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
          subject_token: user.body.access_token,
          subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          scope: 'api2',
        },
        { authorization: basic('api1', 'api1-secret') },
      );
      expect(exchanged.status).toBe(200);
      expect(jwtPayload(exchanged.body.access_token)).toMatchObject({
        sub: '1',
        aud: 'api2',
        client_id: 'api1',
        act: { client_id: 'api1' },
        auth_time: jwtPayload(user.body.access_token).auth_time,
      });
    });
  });

  describe('spa refresh tokens and replays', () => {
    it('issues a refresh token with offline_access, and its refresh gets a new ID token of the same session', async () => {
      const { code, verifier } = await spaCode(new Browser(), { scope: 'openid offline_access' });
      const first = await redeemAsSpa(code, verifier);
      expect(first.status).toBe(200);
      expect(first.body.refresh_token).toEqual(expect.any(String));
      const refreshed = await postForm(`${server.url}/connect/token`, {
        grant_type: 'refresh_token',
        client_id: 'spa',
        refresh_token: first.body.refresh_token,
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.refresh_token).not.toBe(first.body.refresh_token);
      const [before, after] = [jwtPayload(first.body.id_token), jwtPayload(refreshed.body.id_token)];
      expect(after).toMatchObject({ sub: '1', aud: 'spa', sid: before.sid, auth_time: before.auth_time });
      expect(after.nonce).toBeUndefined();
    });

    it('refuses a code presented twice, and revokes the access and refresh tokens it issued', async () => {
      const { code, verifier } = await spaCode(new Browser(), { scope: 'openid profile offline_access' });
      const first = await redeemAsSpa(code, verifier);
      expect(first.status).toBe(200);
      const replay = await redeemAsSpa(code, verifier);
      expect(replay.status).toBe(400);
      expect(replay.body).toEqual({ error: 'invalid_grant', error_description: 'the authorization code has already been used' });

      const userinfo = await request(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${first.body.access_token}` } });
      expect(userinfo.status).toBe(401);
      const refresh = await postForm(`${server.url}/connect/token`, { grant_type: 'refresh_token', client_id: 'spa', refresh_token: first.body.refresh_token });
      expect(refresh.status).toBe(400);
      expect(refresh.body.error).toBe('invalid_grant');
    });

    it.each<[string, (verifier: string) => Record<string, string>, string]>([
      ['a code_verifier that does not match the challenge', () => ({ code_verifier: pkce().verifier }), 'code_verifier does not match the code challenge'],
      ['no code_verifier', () => ({ code_verifier: '' }), 'code_verifier does not match the code challenge'],
      [
        "a redirect_uri other than the request's",
        () => ({ redirect_uri: 'http://localhost:5173/callback' }),
        'redirect_uri is not the one of the authorization request',
      ],
      ['an unknown code', () => ({ code: 'x'.repeat(43) }), 'the authorization code is invalid'],
    ])('refuses %s with invalid_grant', async (_, change, description) => {
      const { code, verifier } = await spaCode();
      const response = await redeemAsSpa(code, verifier, change(verifier));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_grant', error_description: description });
    });

    it('refuses an expired code', async () => {
      const { code, verifier } = await spaCode();
      await sql("UPDATE authorization_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1", [
        createHash('sha256').update(code).digest('base64url'),
      ]);
      const response = await redeemAsSpa(code, verifier);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_grant', error_description: 'the authorization code has expired' });
    });

    it('refuses a code issued to another client, which stays usable by its own', async () => {
      const { code, verifier } = await spaCode();
      const stolen = await postForm(
        `${server.url}/connect/token`,
        { grant_type: 'authorization_code', code, redirect_uri: SPA.redirectUri, code_verifier: verifier },
        { authorization: basic('webapp', 'webapp-secret') },
      );
      expect(stolen.status).toBe(400);
      expect(stolen.body.error).toBe('invalid_grant');
      expect((await redeemAsSpa(code, verifier)).status).toBe(200);
    });
  });

  describe('public clients (token_endpoint_auth_method none)', () => {
    it('refuses a secret presented for a public client, and a confidential client naming itself without one', async () => {
      const { code, verifier } = await spaCode();
      const withSecret = await redeemAsSpa(code, verifier, { client_secret: 'anything' });
      expect(withSecret.status).toBe(401);
      expect(withSecret.body.error).toBe('invalid_client');
      const confidential = await postForm(`${server.url}/connect/token`, {
        grant_type: 'authorization_code',
        client_id: 'webapp',
        code,
        code_verifier: verifier,
      });
      expect(confidential.status).toBe(401);
      expect(confidential.body.error).toBe('invalid_client');
    });

    it('lets a public client use only authorization_code and refresh_token, whatever it is registered for', async () => {
      const clientId = uniqueName('public');
      await insertClient({
        clientId,
        public: true,
        secrets: [],
        grantTypes: ['client_credentials', 'authorization_code'],
        scopes: ['api1'],
        redirectUris: ['http://127.0.0.1:5173/cb'],
      });
      const response = await postForm(`${server.url}/connect/token`, { grant_type: 'client_credentials', client_id: clientId });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('unauthorized_client');
    });

    it('refuses introspection to a public client, and lets it revoke its own tokens', async () => {
      const { code, verifier } = await spaCode();
      const { body } = await redeemAsSpa(code, verifier);
      const introspection = await postForm(`${server.url}/connect/introspect`, { client_id: 'spa', token: body.access_token });
      expect(introspection.status).toBe(401);
      expect(introspection.body.error).toBe('invalid_client');
      const revocation = await postForm(`${server.url}/connect/revocation`, { client_id: 'spa', token: body.access_token });
      expect(revocation.status).toBe(200);
      const userinfo = await request(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${body.access_token}` } });
      expect(userinfo.status).toBe(401);
    });
  });

  describe('webapp (confidential client, consent required)', () => {
    const redeemAsWebapp = (code: string, verifier: string) =>
      postForm(
        `${server.url}/connect/token`,
        { grant_type: 'authorization_code', code, redirect_uri: WEBAPP.redirectUri, code_verifier: verifier },
        { authorization: basic('webapp', 'webapp-secret') },
      );

    it("asks a user's consent in words, remembers an allow, and asks again for prompt=consent or a wider scope", async () => {
      const browser = new Browser();
      const username = uniqueName('dave');
      const subject = await insertUser({ username, password: 'dave-password' });
      const { parameters, verifier } = authorizationRequest(WEBAPP, { scope: 'openid email api1' });
      const consent = await signIn(browser, await browser.get(authorizeUrl(parameters)), username, 'dave-password');
      expect(consent.status).toBe(200);
      expect(consent.headers.get('x-frame-options')).toBe('DENY');
      const html = await consent.text();
      expect(html).toContain('See your email address');
      expect(html).toContain('Use the api1 API on your behalf');
      expect(html).toMatch(/<button type="submit" name="decision" value="allow"/);
      expect(html).toMatch(/<button type="submit" name="decision" value="deny"/);
      const redirect = await browser.submit(server.url, html, { decision: 'allow' });
      expect(redirect.status).toBe(302);
      const { code, state, iss } = locationParameters(redirect);
      expect([state, iss]).toEqual(['state-1', ISSUER]);
      const tokens = await redeemAsWebapp(code, verifier);
      expect(tokens.status).toBe(200);
      expect(jwtPayload(tokens.body.id_token)).toMatchObject({ sub: subject, aud: 'webapp', azp: 'webapp' });

      const again = authorizationRequest(WEBAPP, { scope: 'openid api1' });
      const remembered = await browser.get(authorizeUrl(again.parameters));
      expect(remembered.status).toBe(302);
      expect(locationParameters(remembered).code).toEqual(expect.any(String));

      const forced = await browser.get(authorizeUrl(authorizationRequest(WEBAPP, { scope: 'openid api1', prompt: 'consent' }).parameters));
      expect(forced.status).toBe(200);
      expect(await forced.text()).toContain('name="decision"');

      const wider = await browser.get(authorizeUrl(authorizationRequest(WEBAPP, { scope: 'openid profile' }).parameters));
      expect(wider.status).toBe(200);
      expect(await wider.text()).toContain('See your name and profile');
    });

    it('asks a client back with the union of its scopes (MCP scope step-up) only for the new ones, and remembers the union', async () => {
      const browser = new Browser();
      const username = uniqueName('erin');
      await insertUser({ username, password: 'erin-password' });
      const first = await signIn(
        browser,
        await browser.get(authorizeUrl(authorizationRequest(WEBAPP, { scope: 'openid api1' }).parameters)),
        username,
        'erin-password',
      );
      expect(await browser.submit(server.url, await first.text(), { decision: 'allow' })).toMatchObject({ status: 302 });

      const stepUp = await browser.get(authorizeUrl(authorizationRequest(WEBAPP, { scope: 'openid api1 email' }).parameters));
      expect(stepUp.status).toBe(200);
      const html = await stepUp.text();
      const asked = [...html.matchAll(/<li>([^<]*)<\/li>/g)].map(([, item]) => item);
      expect(asked).toEqual(['See your email address']);
      const allowed = await browser.submit(server.url, html, { decision: 'allow' });
      expect(allowed.status).toBe(302);
      expect(locationParameters(allowed).code).toEqual(expect.any(String));

      const union = await browser.get(authorizeUrl(authorizationRequest(WEBAPP, { scope: 'email api1 openid' }).parameters));
      expect(union.status).toBe(302);
      expect(locationParameters(union).code).toEqual(expect.any(String));
    });

    it('answers a deny with access_denied at the redirect URI', async () => {
      const browser = new Browser();
      const consent = await signIn(browser, await browser.get(authorizeUrl(authorizationRequest(WEBAPP, { prompt: 'consent' }).parameters)), 'bob');
      const redirect = await browser.submit(server.url, await consent.text(), { decision: 'deny' });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')!.startsWith(`${WEBAPP.redirectUri}?`)).toBe(true);
      expect(locationParameters(redirect)).toEqual({ error: 'access_denied', error_description: 'the user denied the request', state: 'state-1', iss: ISSUER });
    });

    it('answers prompt=none with consent_required when consent is missing', async () => {
      const browser = new Browser();
      const user = uniqueName('carol');
      await insertUser({ username: user, password: 'carol-password' });
      const loginPage = await browser.get(authorizeUrl(authorizationRequest(WEBAPP).parameters));
      const consent = await signIn(browser, loginPage, user, 'carol-password');
      expect(consent.status).toBe(200);
      const silent = await browser.get(authorizeUrl(authorizationRequest(WEBAPP, { prompt: 'none' }).parameters));
      expect(silent.status).toBe(302);
      expect(locationParameters(silent)).toMatchObject({ error: 'consent_required', state: 'state-1', iss: ISSUER });
    });

    it('uses the only registered redirect URI when the request names none', async () => {
      const { parameters } = authorizationRequest(WEBAPP);
      delete parameters.redirect_uri;
      const response = await new Browser().get(authorizeUrl(parameters));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('name="password"');
    });
  });
});
