import { startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, uniqueName } from '../support/fixtures';

const SPA_ORIGIN = 'http://127.0.0.1:5173';

/** docs/browser-sign-in.md: CORS for the origins of registered redirect URIs, and only those. */
describe('CORS', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A new client's origin is seen within CACHE_TTL_SECONDS.
    server = await startTestServer({ CACHE_TTL_SECONDS: '1' });
  });
  afterAll(() => server.close());

  const preflight = (path: string, origin: string, requestHeaders = 'content-type') =>
    fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders },
    });

  it.each([
    '/connect/token',
    '/connect/userinfo',
    '/connect/revocation',
    '/connect/par',
    '/.well-known/openid-configuration',
    '/.well-known/oauth-authorization-server',
    // RFC 8414 §3.1, for an issuer with a path.
    '/.well-known/oauth-authorization-server/auth',
    '/.well-known/openid-configuration/jwks',
  ])('answers a preflight to %s from a registered redirect origin', async (path) => {
    const response = await preflight(path, SPA_ORIGIN);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(SPA_ORIGIN);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, DPoP');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toContain('Origin');
  });

  // RFC 9449 from a browser (oidc-client-ts, oauth4webapi): the proof goes in a DPoP header, the nonce comes back in DPoP-Nonce.
  it.each(['/connect/token', '/connect/userinfo', '/connect/par', '/connect/revocation'])(
    'lets a browser app send a DPoP proof to %s and read DPoP-Nonce and WWW-Authenticate',
    async (path) => {
      const response = await preflight(path, SPA_ORIGIN, 'authorization,content-type,dpop');
      expect(response.status).toBe(204);
      const allowed = response.headers
        .get('access-control-allow-headers')!
        .split(',')
        .map((name) => name.trim().toLowerCase());
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'dpop']));
      const actual = await fetch(`${server.url}${path}`, { method: 'POST', headers: { origin: SPA_ORIGIN, dpop: 'not-a-proof' } });
      expect(actual.headers.get('access-control-allow-origin')).toBe(SPA_ORIGIN);
      const exposed = actual.headers
        .get('access-control-expose-headers')!
        .split(',')
        .map((name) => name.trim().toLowerCase());
      expect(exposed).toEqual(expect.arrayContaining(['dpop-nonce', 'www-authenticate']));
    },
  );

  it('allows no other origin', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:5175', 'null']) {
      const response = await preflight('/connect/token', origin);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      const discovery = await fetch(`${server.url}/.well-known/openid-configuration`, { headers: { origin } });
      expect(discovery.status).toBe(200);
      expect(discovery.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('adds the origin to actual responses, errors included', async () => {
    const discovery = await fetch(`${server.url}/.well-known/openid-configuration`, { headers: { origin: SPA_ORIGIN } });
    expect(discovery.headers.get('access-control-allow-origin')).toBe(SPA_ORIGIN);
    const userinfo = await fetch(`${server.url}/connect/userinfo`, { headers: { origin: 'http://localhost:5173' } });
    expect(userinfo.status).toBe(401);
    expect(userinfo.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(userinfo.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
  });

  it('does not answer CORS for introspection or the authorization endpoint', async () => {
    for (const path of ['/connect/introspect', '/connect/authorize']) {
      const response = await preflight(path, SPA_ORIGIN);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it("sees a newly registered client's origin", async () => {
    const origin = 'https://new-app.example';
    await insertClient({
      clientId: uniqueName('new-app'),
      secrets: [],
      public: true,
      grantTypes: ['authorization_code'],
      scopes: ['openid'],
      redirectUris: [`${origin}/cb`],
    });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const response = await preflight('/connect/token', origin);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
  });
});
