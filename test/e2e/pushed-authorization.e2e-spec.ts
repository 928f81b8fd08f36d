import * as oidc from 'openid-client';
import { DataSource } from 'typeorm';
import { PushedAuthorizationRequestEntity } from '../../src/endpoints/authorize/persistence/pushed-authorization-request.entity';
import { TypeOrmPushedAuthorizationRequestRepository } from '../../src/endpoints/authorize/persistence/typeorm-pushed-authorization-request.repository';
import { hashClientSecret } from '../../src/identity/clients/client-secret.verifier';
import { hashHandle } from '../../src/protocol/opaque-handle';
import { Browser, locationParameters, pkce } from '../support/browser';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { basic, postForm, type HttpResponse } from '../support/http';

const WEBAPP_CALLBACK = 'http://127.0.0.1:5174/callback';
const SPA_CALLBACK = 'http://127.0.0.1:5173/callback';
const PAR_ONLY_CALLBACK = 'https://par-only.example/callback';
const REQUEST_URI = /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/;

/** Pushed authorization requests (RFC 9126, docs/browser-sign-in.md#pushed-authorization-requests--post-connectpar). */
describe('pushed authorization requests', () => {
  let server: TestServer;
  let startedAt: Date;
  beforeAll(async () => {
    [{ now: startedAt }] = await sql<{ now: Date }>('SELECT now()');
    server = await startTestServer();
    // A client of its own, created after the migrations ran (none of the demo clients requires PAR).
    await sql(
      `INSERT INTO clients (client_id, allowed_grant_types, allowed_scopes, redirect_uris, require_pushed_authorization_requests)
       VALUES ('par-only', '{authorization_code}', '{openid,profile}', $1, true) ON CONFLICT DO NOTHING`,
      [[PAR_ONLY_CALLBACK]],
    );
    await sql(`INSERT INTO client_secrets (client_id, value_hash, description) VALUES ('par-only', $1, 'test') ON CONFLICT DO NOTHING`, [
      hashClientSecret('par-only-secret'),
    ]);
  });
  afterAll(async () => {
    // The consents given here would spare the next specs on this database webapp's consent page.
    await sql(`DELETE FROM consents WHERE client_id = 'webapp' AND updated_at >= $1`, [startedAt]);
    await server.close();
  });

  const challenge = pkce().challenge;
  const webappRequest = (extra: Record<string, string> = {}) => ({
    response_type: 'code',
    redirect_uri: WEBAPP_CALLBACK,
    scope: 'openid profile',
    state: 'pushed-state',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  const push = (form: Record<string, string | string[]>, headers: Record<string, string> = { authorization: basic('webapp', 'webapp-secret') }) =>
    postForm(`${server.url}/connect/par`, form, headers);
  async function pushed(form: Record<string, string>, headers?: Record<string, string>): Promise<string> {
    const response = await push(form, headers);
    expect(response.status).toBe(201);
    return response.body.request_uri;
  }
  const authorize = (browser: Browser, parameters: Record<string, string>) =>
    browser.get(`${server.url}/connect/authorize?${new URLSearchParams(parameters).toString()}`);
  const expectRedirectError = (response: Response, error: string) => {
    expect(response.status).toBe(302);
    expect(response.headers.get('location')!.startsWith(`${WEBAPP_CALLBACK}?`)).toBe(true);
    expect(locationParameters(response)).toEqual({ error, error_description: expect.any(String), iss: ISSUER });
  };
  const expectErrorBody = (response: HttpResponse, status: number, error: string) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({ error, error_description: expect.any(String) });
  };

  describe('with openid-client', () => {
    const routeToTestServer: oidc.CustomFetch = (url, options) => fetch(url.replace(ISSUER, server.url), options as RequestInit);

    it('signs bob in to webapp with buildAuthorizationUrlWithPAR, through the login and consent pages', async () => {
      const config = await oidc.discovery(new URL(ISSUER), 'webapp', undefined, oidc.ClientSecretBasic('webapp-secret'), {
        [oidc.customFetch]: routeToTestServer,
        execute: [oidc.allowInsecureRequests],
      });
      expect(config.serverMetadata().pushed_authorization_request_endpoint).toBe(`${ISSUER}/connect/par`);
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = await oidc.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: WEBAPP_CALLBACK,
        scope: 'openid profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        // Other specs on this database may have left bob's consent to webapp: ask again.
        prompt: 'consent',
      });
      expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
      expect(url.searchParams.get('request_uri')).toMatch(REQUEST_URI);

      const browser = new Browser();
      const login = await browser.get(url.href.replace(ISSUER, server.url));
      expect(login.status).toBe(200);
      const consent = await browser.submit(server.url, await login.text(), { username: 'bob', password: 'bob' });
      expect(consent.status).toBe(200);
      const callback = await browser.submit(server.url, await consent.text(), { decision: 'allow' });
      expect(callback.status).toBe(302);

      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback.headers.get('location')!), {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      expect(tokens.claims()).toMatchObject({ iss: ISSUER, sub: '2', aud: 'webapp', nonce });

      // Single use: the same request_uri again is refused, at webapp's only redirect URI.
      expectRedirectError(await browser.get(url.href.replace(ISSUER, server.url)), 'invalid_request_uri');
    });
  });

  describe('POST /connect/par', () => {
    it('answers 201 with a fresh request_uri and expires_in 60, not to be cached', async () => {
      const response = await push(webappRequest());
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.body).toEqual({ request_uri: expect.stringMatching(REQUEST_URI), expires_in: 60 });
      expect((await push(webappRequest())).body.request_uri).not.toBe(response.body.request_uri);
    });

    it('accepts a public client naming itself (none)', async () => {
      const response = await push({ ...webappRequest(), client_id: 'spa', redirect_uri: SPA_CALLBACK }, {});
      expect(response.status).toBe(201);
    });

    it('refuses a request without client authentication', async () => {
      const response = await push({ ...webappRequest(), client_id: 'webapp' }, {});
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_client');
    });

    it('refuses a wrong secret', async () => {
      const response = await push(webappRequest(), { authorization: basic('webapp', 'wrong') });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_client');
    });

    it('refuses a request_uri in the pushed request', async () => {
      expectErrorBody(await push(webappRequest({ request_uri: 'urn:ietf:params:oauth:request_uri:abc' })), 400, 'invalid_request');
    });

    it('refuses a client_id that is not the authenticated client', async () => {
      expectErrorBody(await push(webappRequest({ client_id: 'spa' })), 400, 'invalid_request');
    });

    it('refuses a redirect_uri not registered for the client', async () => {
      expectErrorBody(await push(webappRequest({ redirect_uri: 'https://attacker.example/callback' })), 400, 'invalid_redirect_uri');
    });

    it('validates the request as the authorization endpoint does', async () => {
      expectErrorBody(await push(webappRequest({ scope: 'openid unknown-scope' })), 400, 'invalid_scope');
      expectErrorBody(await push(webappRequest({ code_challenge_method: 'plain' })), 400, 'invalid_request');
      expectErrorBody(await push(webappRequest({ response_type: 'token' })), 400, 'unsupported_response_type');
      expectErrorBody(await push({ ...webappRequest(), state: ['a', 'b'] }), 400, 'invalid_request');
      expectErrorBody(await push(webappRequest({ request: 'eyJhbGciOiJub25lIn0.e30.' })), 400, 'request_not_supported');
    });

    it('refuses a client that may not use the authorization code flow', async () => {
      expectErrorBody(await push(webappRequest(), { authorization: basic('gateway', 'gateway-secret') }), 400, 'unauthorized_client');
    });
  });

  describe('GET /connect/authorize with a pushed request_uri', () => {
    it('uses the pushed parameters and ignores those sent beside request_uri', async () => {
      const requestUri = await pushed({ ...webappRequest({ redirect_uri: SPA_CALLBACK }), client_id: 'spa' }, {});
      const browser = new Browser();
      const login = await authorize(browser, { client_id: 'spa', request_uri: requestUri, state: 'sent-beside', scope: 'api1', prompt: 'none' });
      expect(login.status).toBe(200);
      const callback = await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' });
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')!.startsWith(`${SPA_CALLBACK}?`)).toBe(true);
      expect(locationParameters(callback)).toEqual({ code: expect.any(String), state: 'pushed-state', iss: ISSUER });
    });

    it('keeps a prompt=login satisfied by the sign-in through the consent page', async () => {
      const requestUri = await pushed(webappRequest({ prompt: 'login consent', max_age: '0' }));
      const browser = new Browser();
      const login = await authorize(browser, { client_id: 'webapp', request_uri: requestUri });
      const consent = await (await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' })).text();
      expect(consent).toContain('name="decision"');
      const callback = await browser.submit(server.url, consent, { decision: 'allow' });
      expect(callback.status).toBe(302);
      expect(locationParameters(callback)).toEqual({ code: expect.any(String), state: 'pushed-state', iss: ISSUER });
      // The consent form again, after the code: the pushed request is used up.
      expectRedirectError(await browser.submit(server.url, consent, { decision: 'allow' }), 'invalid_request_uri');
    });

    it('refuses an unknown request_uri at the redirect URI when the client has exactly one', async () => {
      const response = await authorize(new Browser(), { client_id: 'webapp', request_uri: `urn:ietf:params:oauth:request_uri:${'A'.repeat(43)}` });
      expectRedirectError(response, 'invalid_request_uri');
    });

    it('refuses an unknown request_uri on a 400 page when the client has several redirect URIs', async () => {
      const response = await authorize(new Browser(), { client_id: 'spa', request_uri: 'urn:ietf:params:oauth:request_uri:nope' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    });

    it('refuses an expired request_uri', async () => {
      const requestUri = await pushed(webappRequest());
      const hash = hashHandle(requestUri.slice('urn:ietf:params:oauth:request_uri:'.length));
      const expired = await sql(`UPDATE pushed_authorization_requests SET expires_at = now() - interval '1 second' WHERE request_uri_hash = $1 RETURNING 1`, [
        hash,
      ]);
      expect(expired).toHaveLength(1);
      expectRedirectError(await authorize(new Browser(), { client_id: 'webapp', request_uri: requestUri }), 'invalid_request_uri');
    });

    it('refuses a request_uri used at the authorization endpoint before', async () => {
      const requestUri = await pushed(webappRequest());
      expect((await authorize(new Browser(), { client_id: 'webapp', request_uri: requestUri })).status).toBe(200);
      expectRedirectError(await authorize(new Browser(), { client_id: 'webapp', request_uri: requestUri }), 'invalid_request_uri');
    });

    it("refuses another client's request_uri, which stays its client's", async () => {
      const requestUri = await pushed({ ...webappRequest({ redirect_uri: SPA_CALLBACK }), client_id: 'spa' }, {});
      expectRedirectError(await authorize(new Browser(), { client_id: 'webapp', request_uri: requestUri }), 'invalid_request_uri');
      expect((await authorize(new Browser(), { client_id: 'spa', request_uri: requestUri })).status).toBe(200);
    });

    it('still refuses a request_uri this server did not issue with request_uri_not_supported', async () => {
      const response = await authorize(new Browser(), { ...webappRequest(), client_id: 'webapp', request_uri: 'https://client.example/request.jwt' });
      expect(response.status).toBe(302);
      expect(locationParameters(response)).toMatchObject({ error: 'request_uri_not_supported', state: 'pushed-state', iss: ISSUER });
    });
  });

  describe('a client registered as requiring pushed requests', () => {
    it('gets invalid_request at the authorization endpoint without a pushed request_uri', async () => {
      const response = await authorize(new Browser(), { ...webappRequest({ redirect_uri: PAR_ONLY_CALLBACK }), client_id: 'par-only' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')!.startsWith(`${PAR_ONLY_CALLBACK}?`)).toBe(true);
      expect(locationParameters(response)).toEqual({
        error: 'invalid_request',
        error_description: expect.stringContaining('push'),
        state: 'pushed-state',
        iss: ISSUER,
      });
    });

    it('signs in with a pushed request', async () => {
      const requestUri = await pushed(webappRequest({ redirect_uri: PAR_ONLY_CALLBACK }), { authorization: basic('par-only', 'par-only-secret') });
      const browser = new Browser();
      const login = await authorize(browser, { client_id: 'par-only', request_uri: requestUri });
      expect(login.status).toBe(200);
      const callback = await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' });
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')!.startsWith(`${PAR_ONLY_CALLBACK}?`)).toBe(true);
      expect(locationParameters(callback)).toEqual({ code: expect.any(String), state: 'pushed-state', iss: ISSUER });
    });
  });

  describe('storage', () => {
    it("holds at most the limit of one client's requests, expired ones making room", async () => {
      const repository = new TypeOrmPushedAuthorizationRequestRepository(server.app.get(DataSource).getRepository(PushedAuthorizationRequestEntity));
      await sql(`DELETE FROM pushed_authorization_requests WHERE client_id = 'par-only'`);
      const now = new Date();
      const row = (name: string, expiresAt = new Date(now.getTime() + 60_000)) => ({
        requestUriHash: hashHandle(name),
        clientId: 'par-only',
        parameters: { client_id: 'par-only' },
        expiresAt,
      });
      const limits = { perClient: 2, perAddress: 1 };
      expect(await repository.add(row('first', new Date(now.getTime() - 1000)), limits, now)).toBeUndefined();
      expect(await repository.add(row('second'), limits, now)).toBeUndefined();
      expect(await repository.add(row('third'), limits, now)).toBeUndefined();
      expect(await repository.add(row('fourth'), limits, now)).toBe('client');
      expect(await sql(`SELECT count(*)::int AS count FROM pushed_authorization_requests WHERE client_id = 'par-only'`)).toEqual([{ count: 2 }]);
    });
  });
});
