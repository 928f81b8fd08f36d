import { startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, uniqueName } from '../support/fixtures';

const SPA_ORIGIN = 'http://127.0.0.1:5173';

/** docs/browser-sign-in.md: CORS for the origins of registered redirect URIs, and only those. */
describe('CORS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const preflight = (path: string, origin: string) =>
    fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });

  it.each([
    '/connect/token',
    '/connect/userinfo',
    '/connect/revocation',
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
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toContain('Origin');
  });

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
    await new Promise((resolve) => setTimeout(resolve, 5100));
    const response = await preflight('/connect/token', origin);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
  });
});
