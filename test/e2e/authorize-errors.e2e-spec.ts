import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { Browser, locationParameters, pkce } from '../support/browser';
import { insertClient, uniqueName } from '../support/fixtures';

const SPA_REDIRECT = 'http://127.0.0.1:5173/callback';

/** docs/browser-sign-in.md: which authorization errors are shown on a page, and which are redirected. */
describe('authorization endpoint errors', () => {
  let server: TestServer;
  const noGrantClient = uniqueName('no-code-grant');
  beforeAll(async () => {
    server = await startTestServer();
    await insertClient({
      clientId: noGrantClient,
      secrets: [{ secret: 'secret' }],
      grantTypes: ['client_credentials'],
      scopes: ['openid'],
      redirectUris: [SPA_REDIRECT],
    });
  });
  afterAll(() => server.close());

  const valid = (): Record<string, string> => ({
    client_id: 'spa',
    redirect_uri: SPA_REDIRECT,
    response_type: 'code',
    scope: 'openid',
    state: 'xyz',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  });
  const get = (parameters: Record<string, string> | URLSearchParams) => new Browser().get(`${server.url}/connect/authorize?${new URLSearchParams(parameters)}`);

  describe('shown on a 400 page, never redirected', () => {
    it.each<[string, (parameters: Record<string, string>) => void, string]>([
      ['an unknown client_id', (p) => (p.client_id = 'no-such-client'), 'the client is unknown'],
      ['no client_id', (p) => delete p.client_id, 'client_id is required'],
      [
        'a redirect_uri not registered for the client',
        (p) => (p.redirect_uri = 'http://127.0.0.1:5173/other'),
        'redirect_uri is not registered for this client',
      ],
      [
        'a redirect_uri that only starts like a registered one',
        (p) => (p.redirect_uri = `${SPA_REDIRECT}/x`),
        'redirect_uri is not registered for this client',
      ],
      ['no redirect_uri while the client has several', (p) => delete p.redirect_uri, 'redirect_uri is required'],
    ])('%s', async (_, change, message) => {
      const parameters = valid();
      change(parameters);
      const response = await get(parameters);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const html = await response.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain(message);
    });

    it('escapes what the request sent', async () => {
      const response = await get({ ...valid(), client_id: '<script>alert(1)</script>' });
      expect(response.status).toBe(400);
      expect(await response.text()).not.toContain('<script>');
    });
  });

  describe('redirected with error, error_description, state and iss', () => {
    it.each<[string, (parameters: Record<string, string>) => void, string]>([
      ['no response_type', (p) => delete p.response_type, 'invalid_request'],
      ['response_type token', (p) => (p.response_type = 'token'), 'unsupported_response_type'],
      ['response_type id_token', (p) => (p.response_type = 'code id_token'), 'unsupported_response_type'],
      ['no code_challenge', (p) => delete p.code_challenge, 'invalid_request'],
      ['code_challenge_method plain', (p) => (p.code_challenge_method = 'plain'), 'invalid_request'],
      ['no code_challenge_method (plain by default)', (p) => delete p.code_challenge_method, 'invalid_request'],
      ['a malformed code_challenge', (p) => (p.code_challenge = 'short'), 'invalid_request'],
      ['an unknown scope', (p) => (p.scope = 'openid no-such-scope'), 'invalid_scope'],
      ['a scope the client is not allowed', (p) => (p.scope = 'openid api2'), 'invalid_scope'],
      ['a request object', (p) => (p.request = 'eyJhbGciOiJub25lIn0.e30.'), 'request_not_supported'],
      ['a request_uri', (p) => (p.request_uri = 'https://rp.example/request'), 'request_uri_not_supported'],
      ['an unknown prompt', (p) => (p.prompt = 'select_everything'), 'invalid_request'],
      ['prompt none with login', (p) => (p.prompt = 'none login'), 'invalid_request'],
      ['a malformed max_age', (p) => (p.max_age = '-1'), 'invalid_request'],
      ['an unknown response_mode', (p) => (p.response_mode = 'fragment'), 'invalid_request'],
      ['prompt=none without a session', (p) => (p.prompt = 'none'), 'login_required'],
    ])('%s', async (_, change, error) => {
      const parameters = valid();
      change(parameters);
      const response = await get(parameters);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')!.startsWith(`${SPA_REDIRECT}?`)).toBe(true);
      expect(locationParameters(response)).toEqual({ error, error_description: expect.any(String), state: 'xyz', iss: ISSUER });
    });

    it('unauthorized_client for a client without the authorization_code grant', async () => {
      const response = await get({ ...valid(), client_id: noGrantClient });
      expect(response.status).toBe(302);
      expect(locationParameters(response)).toMatchObject({ error: 'unauthorized_client', state: 'xyz', iss: ISSUER });
    });

    it('invalid_request for a repeated parameter', async () => {
      const parameters = new URLSearchParams(valid());
      parameters.append('scope', 'profile');
      const response = await get(parameters);
      expect(response.status).toBe(302);
      expect(locationParameters(response)).toMatchObject({ error: 'invalid_request', state: 'xyz' });
    });

    it('invalid_request for a state over 2,048 characters, without echoing it and without a code, signed in or not', async () => {
      const browser = new Browser();
      const login = await browser.get(`${server.url}/connect/authorize?${new URLSearchParams(valid())}`);
      expect((await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' })).status).toBe(302);
      for (const client of [browser, new Browser()]) {
        const response = await client.get(`${server.url}/connect/authorize?${new URLSearchParams({ ...valid(), state: 's'.repeat(2049) })}`);
        expect(response.status).toBe(302);
        expect(locationParameters(response)).toEqual({ error: 'invalid_request', error_description: 'parameter state is too long', iss: ISSUER });
      }
      const longest = await browser.get(`${server.url}/connect/authorize?${new URLSearchParams({ ...valid(), state: 's'.repeat(2048) })}`);
      expect(locationParameters(longest)).toEqual({ code: expect.any(String), state: 's'.repeat(2048), iss: ISSUER });
    });

    it('leaves state out when the request sent none', async () => {
      const parameters = valid();
      delete parameters.state;
      const response = await get({ ...parameters, response_type: 'token' });
      expect(locationParameters(response)).toEqual({ error: 'unsupported_response_type', error_description: expect.any(String), iss: ISSUER });
    });

    it('ignores unknown parameters', async () => {
      const response = await get({ ...valid(), unknown_parameter: 'whatever' });
      expect(response.status).toBe(200);
    });

    it('posts the error back with response_mode=form_post', async () => {
      const response = await get({ ...valid(), response_mode: 'form_post', response_type: 'token' });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(`action="${SPA_REDIRECT}"`);
      expect(html).toContain('name="error" value="unsupported_response_type"');
      expect(html).toContain('name="state" value="xyz"');
    });
  });

  describe('POST /connect/authorize', () => {
    it('takes the same parameters as a form', async () => {
      const response = await new Browser().post(`${server.url}/connect/authorize`, valid());
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('name="password"');
    });
  });
});
