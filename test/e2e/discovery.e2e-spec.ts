import { importJWK, jwtVerify, decodeProtectedHeader, type JWK } from 'jose';
import * as oauth from 'oauth4webapi';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { request, userAccessToken } from '../support/http';

/** docs/endpoints.md#discovery: OpenID Connect Discovery 1.0 / RFC 8414 metadata and the JWK Set. */
describe('discovery', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers GET / with where to start: the issuer, its discovery document and token endpoint', async () => {
    const response = await request(`${server.url}/`);
    expect({ status: response.status, type: response.headers.get('content-type') }).toEqual({ status: 200, type: 'application/json; charset=utf-8' });
    expect(response.body).toEqual({
      service: 'Tollgate, an OAuth 2.0 and OpenID Connect token service',
      issuer: ISSUER,
      openid_configuration: `${ISSUER}/.well-known/openid-configuration`,
      token_endpoint: `${ISSUER}/connect/token (POST)`,
    });
  });

  describe('GET /.well-known/openid-configuration', () => {
    it('answers with JSON metadata', async () => {
      const response = await request(`${server.url}/.well-known/openid-configuration`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    });

    it('names the issuer and bases every endpoint on it', async () => {
      const { body } = await request(`${server.url}/.well-known/openid-configuration`);
      expect(body.issuer).toBe(ISSUER);
      expect(body.jwks_uri).toBe(`${ISSUER}/.well-known/openid-configuration/jwks`);
      expect(body).toMatchObject({
        token_endpoint: `${ISSUER}/connect/token`,
        userinfo_endpoint: `${ISSUER}/connect/userinfo`,
        introspection_endpoint: `${ISSUER}/connect/introspect`,
        revocation_endpoint: `${ISSUER}/connect/revocation`,
      });
      const endpoints = Object.entries(body).filter(([name]) => name.endsWith('_endpoint') || name === 'jwks_uri');
      for (const [, url] of endpoints) expect(url).toMatch(new RegExp(`^${ISSUER.replace(/\./g, '\\.')}/`));
    });

    it('lists every registered grant type', async () => {
      const { body } = await request(`${server.url}/.well-known/openid-configuration`);
      expect(body.grant_types_supported).toEqual(expect.arrayContaining(['client_credentials', 'password', 'delegation']));
      expect(new Set(body.grant_types_supported).size).toBe(body.grant_types_supported.length);
    });

    it('lists the scopes of the identity and API resources and offline_access', async () => {
      const { body } = await request(`${server.url}/.well-known/openid-configuration`);
      expect(body.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'role', 'api1', 'api2', 'offline_access']));
    });

    it('lists the claims the identity resources map to', async () => {
      const { body } = await request(`${server.url}/.well-known/openid-configuration`);
      expect(body.claims_supported).toEqual(
        expect.arrayContaining(['sub', 'name', 'given_name', 'family_name', 'preferred_username', 'updated_at', 'email', 'email_verified', 'role']),
      );
    });

    it('states the authentication methods, subject types, response types and signing algorithms', async () => {
      const { body } = await request(`${server.url}/.well-known/openid-configuration`);
      // Public clients (none) redeem codes and revoke their tokens, but may not introspect.
      for (const endpoint of ['token', 'introspection', 'revocation']) {
        const methods = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'];
        expect(body[`${endpoint}_endpoint_auth_methods_supported`]).toEqual(endpoint === 'introspection' ? methods : [...methods, 'none']);
        // RFC 8414 §2: the algorithms of private_key_jwt assertions; never none or HMAC.
        expect(body[`${endpoint}_endpoint_auth_signing_alg_values_supported`]).toEqual(['RS256', 'PS256', 'ES256', 'EdDSA']);
      }
      expect(body.subject_types_supported).toEqual(['public']);
      // The authorization code flow only (docs/browser-sign-in.md).
      expect(body.response_types_supported).toEqual(['code']);
      expect(body.id_token_signing_alg_values_supported).toContain('RS256');
      expect(body.id_token_signing_alg_values_supported).not.toContain('none');
    });
  });

  describe('browser sign-in metadata (docs/browser-sign-in.md)', () => {
    it('advertises the authorization code flow with PKCE S256, iss in responses, and no request objects', async () => {
      const { body } = await request(`${server.url}/.well-known/openid-configuration`);
      expect(body).toMatchObject({
        authorization_endpoint: `${ISSUER}/connect/authorize`,
        end_session_endpoint: `${ISSUER}/connect/endsession`,
        response_types_supported: ['code'],
        response_modes_supported: ['query', 'form_post'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        request_parameter_supported: false,
        request_uri_parameter_supported: false,
        // RFC 9126 §5: pushed requests are accepted, and required only of clients registered so.
        pushed_authorization_request_endpoint: `${ISSUER}/connect/par`,
        require_pushed_authorization_requests: false,
      });
      expect(body.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
      expect(body.claims_supported).toEqual(expect.arrayContaining(['auth_time', 'amr', 'sid', 'nonce']));
    });
  });

  describe('GET /.well-known/openid-configuration/jwks', () => {
    const jwks = async (): Promise<JWK[]> => {
      const response = await request(`${server.url}/.well-known/openid-configuration/jwks`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
      return response.body.keys;
    };

    it('is served at the path jwks_uri names', async () => {
      const { body } = await request(`${server.url}/.well-known/openid-configuration`);
      const response = await request(`${server.url}${new URL(body.jwks_uri).pathname}`);
      expect(response.status).toBe(200);
      expect(response.body.keys.length).toBeGreaterThan(0);
    });

    it('publishes each key with kid, alg and use "sig"', async () => {
      const keys = await jwks();
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key).toMatchObject({ kid: expect.any(String), alg: expect.any(String), use: 'sig', kty: expect.any(String) });
        expect(key.alg).not.toMatch(/^(HS|none)/i);
      }
      expect(new Set(keys.map((key) => key.kid)).size).toBe(keys.length);
    });

    it('publishes no private key material', async () => {
      for (const key of await jwks()) {
        for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']) expect(key).not.toHaveProperty(member);
        if (key.kty === 'RSA') expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      }
    });

    it('holds the key that verifies the tokens the service issues', async () => {
      const token = await userAccessToken(server.url);
      const { kid } = decodeProtectedHeader(token);
      const jwk = (await jwks()).find((key) => key.kid === kid);
      expect(jwk).toBeDefined();
      const { payload } = await jwtVerify(token, await importJWK(jwk!, jwk!.alg), { issuer: ISSUER, typ: 'at+jwt' });
      expect(payload.sub).toBe('1');
    });
  });

  describe('an issuer with a path (RFC 8414 §3.1)', () => {
    const PATH_ISSUER = `${ISSUER}/auth`;
    let pathServer: TestServer;
    // The issuer's host is a name; a reverse proxy would route it here.
    const toPathServer = (url: string, options: RequestInit): Promise<Response> => fetch(url.replace(ISSUER, pathServer.url), options);
    beforeAll(async () => {
      pathServer = await startTestServer({ ISSUER: PATH_ISSUER });
    });
    afterAll(() => pathServer.close());

    it('serves the metadata at the path-inserted URL, where oauth4webapi looks for it', async () => {
      const options = { algorithm: 'oauth2' as const, [oauth.customFetch]: toPathServer, [oauth.allowInsecureRequests]: true };
      const metadata = await oauth.processDiscoveryResponse(new URL(PATH_ISSUER), await oauth.discoveryRequest(new URL(PATH_ISSUER), options));
      expect(metadata).toMatchObject({
        issuer: PATH_ISSUER,
        token_endpoint: `${PATH_ISSUER}/connect/token`,
        jwks_uri: `${PATH_ISSUER}/.well-known/openid-configuration/jwks`,
      });
    });

    it('serves the same document as openid-configuration, with the same headers', async () => {
      const inserted = await request(`${pathServer.url}/.well-known/oauth-authorization-server/auth`);
      const oidc = await request(`${pathServer.url}/.well-known/openid-configuration`);
      expect(inserted.status).toBe(200);
      expect(inserted.body).toEqual(oidc.body);
      expect(inserted.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
      expect(inserted.headers.get('cache-control')).toBe('public, max-age=60');
    });

    it('answers 404 for any other path after the well-known segment', async () => {
      for (const path of ['/other', '/auth/x', '/aut', '/auth%2F']) {
        const response = await request(`${pathServer.url}/.well-known/oauth-authorization-server${path}`);
        expect([path, response.status, response.body]).toEqual([path, 404, { error: 'invalid_request', error_description: 'Not found' }]);
      }
    });

    it('has no path-inserted URL for an issuer without a path', async () => {
      expect((await request(`${server.url}/.well-known/oauth-authorization-server/auth`)).status).toBe(404);
      expect((await request(`${server.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
    });
  });
});
