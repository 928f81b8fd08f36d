import { auth } from 'express-oauth2-jwt-bearer';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { request, requestToken, userAccessToken } from '../support/http';
import { API1, introspect } from '../support/token-lifecycle';

/** The parts of an Express request express-oauth2-jwt-bearer reads, and the result it leaves on it. */
interface MiddlewareRequest {
  readonly headers: Record<string, string>;
  readonly query: object;
  readonly body: object;
  readonly method: string;
  readonly url: string;
  readonly protocol: string;
  is(type: string): boolean;
  get(name: string): string | undefined;
  auth?: { readonly payload: Record<string, unknown> };
}

/**
 * RFC 9068 access tokens as widely used resource-server libraries validate them, each in its
 * strictest mode: oauth4webapi, jose (keys from our JWKS, algorithms from our discovery, no clock
 * tolerance) and express-oauth2-jwt-bearer with `strict: true`.
 */
describe('access tokens checked by verifier libraries', () => {
  let server: TestServer;
  let metadata: oauth.AuthorizationServer;
  let userToken: string;
  let clientToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    // RFC 8414 §3: the authorization server metadata, checked by oauth4webapi against our issuer.
    metadata = await oauth.processDiscoveryResponse(new URL(ISSUER), await fetch(`${server.url}/.well-known/oauth-authorization-server`));
    userToken = await userAccessToken(server.url, 'alice', 'openid profile api1');
    clientToken = (await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' })).body.access_token;
  });
  afterAll(() => server.close());

  const jwksUrl = () => new URL(`${server.url}/.well-known/openid-configuration/jwks`);
  // The test server listens on a local port; the metadata names the issuer's host.
  const toTestServer = (url: string, options: RequestInit): Promise<Response> => fetch(url.replace(ISSUER, server.url), options);

  describe('discovery', () => {
    it('serves the same metadata at /.well-known/oauth-authorization-server as at openid-configuration', async () => {
      const oidc = await request(`${server.url}/.well-known/openid-configuration`);
      const rfc8414 = await request(`${server.url}/.well-known/oauth-authorization-server`);
      expect(rfc8414.status).toBe(200);
      expect(rfc8414.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
      expect(rfc8414.body).toEqual(oidc.body);
      expect(metadata.issuer).toBe(ISSUER);
    });

    it('lists the algorithm of every published key', async () => {
      const keys: { alg: string }[] = (await request(jwksUrl().toString())).body.keys;
      const algorithms = metadata.id_token_signing_alg_values_supported ?? [];
      for (const { alg } of keys) expect(algorithms).toContain(alg);
    });
  });

  describe('oauth4webapi validateJwtAccessToken (RFC 9068 §4, every required claim)', () => {
    const validate = (token: string, audience: string) =>
      oauth.validateJwtAccessToken(metadata, new Request('http://api.test/', { headers: { authorization: `Bearer ${token}` } }), audience, {
        [oauth.customFetch]: toTestServer,
        [oauth.allowInsecureRequests]: true,
      });

    it('accepts a user token and a client_credentials token, whose sub is the client_id', async () => {
      expect(await validate(userToken, 'api1')).toMatchObject({ sub: '1', client_id: 'frontend', iss: ISSUER });
      const claims = await validate(clientToken, 'api1');
      expect(claims).toMatchObject({ sub: 'm2m', client_id: 'm2m' });
      expect(claims).not.toHaveProperty('auth_time');
      expect(claims).not.toHaveProperty('amr');
    });

    it('refuses a token for api1 at api2', async () => {
      await expect(validate(userToken, 'api2')).rejects.toThrow();
    });
  });

  describe('jose jwtVerify with createRemoteJWKSet, no clock tolerance', () => {
    const verify = (token: string, audience: string, currentDate?: Date) =>
      jwtVerify(token, createRemoteJWKSet(jwksUrl()), {
        issuer: ISSUER,
        audience,
        typ: 'at+jwt',
        algorithms: metadata.id_token_signing_alg_values_supported,
        requiredClaims: ['sub', 'client_id', 'iat', 'exp', 'jti'],
        currentDate,
      });

    it('accepts a fresh token at a verifier whose clock runs a second behind (no nbf)', async () => {
      const fresh = await userAccessToken(server.url, 'alice', 'openid api1');
      const { payload } = await verify(fresh, 'api1', new Date(Date.now() - 1500));
      expect(payload).not.toHaveProperty('nbf');
      await expect(verify(clientToken, 'api1', new Date(Date.now() - 1500))).resolves.toMatchObject({ payload: { sub: 'm2m' } });
    });

    it('refuses a token for api1 at api2', async () => {
      await expect(verify(userToken, 'api2')).rejects.toThrow(/aud/);
    });
  });

  describe('express-oauth2-jwt-bearer with strict: true', () => {
    /** Runs the middleware on a request carrying `token`; resolves with the verified payload or rejects. */
    function protect(audience: string, token: string): Promise<Record<string, unknown>> {
      const middleware = auth({ issuer: ISSUER, jwksUri: jwksUrl().toString(), audience, strict: true, clockTolerance: 0 });
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, host: 'api.test' };
      const req: MiddlewareRequest = {
        headers,
        query: {},
        body: {},
        method: 'GET',
        url: '/',
        protocol: 'http',
        is: () => false,
        get: (name) => headers[name.toLowerCase()],
      };
      return new Promise((resolve, reject) => {
        // Only the parts above: Express's own Request and Response types describe far more (@types/express).
        const [expressRequest, expressResponse] = [req, {}] as unknown as Parameters<typeof middleware>;
        void middleware(expressRequest, expressResponse, (error?: unknown) => {
          if (error) reject(error);
          else if (req.auth) resolve(req.auth.payload);
          else reject(new Error('the middleware passed the request on without its auth result'));
        });
      });
    }

    it('passes a user token for api1 at api1 and refuses it at api2', async () => {
      await expect(protect('api1', userToken)).resolves.toMatchObject({ sub: '1', client_id: 'frontend' });
      await expect(protect('api2', userToken)).rejects.toMatchObject({ status: 401 });
    });

    it('passes a client_credentials token (sub = client_id) in strict mode', async () => {
      await expect(protect('api1', clientToken)).resolves.toMatchObject({ sub: 'm2m', client_id: 'm2m' });
    });

    it('passes a token api1 obtained by delegation at api2, naming api1 as actor', async () => {
      const delegated = await requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token: userToken, scope: 'api2' });
      expect(delegated.status).toBe(200);
      const payload = await protect('api2', delegated.body.access_token);
      expect(payload).toMatchObject({ sub: '1', client_id: 'api1', act: { client_id: 'api1' } });
      await expect(protect('api1', delegated.body.access_token)).rejects.toMatchObject({ status: 401 });
    });
  });

  describe('introspection of oversized input', () => {
    it('answers a 17 KiB token with {"active": false}', async () => {
      const huge = `${userToken}${'A'.repeat(17 * 1024)}`;
      const response = await introspect(server.url, API1, { token: huge });
      expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { active: false } });
    });

    it('still bounds the request body (64 KiB)', async () => {
      const response = await introspect(server.url, API1, { token: 'A'.repeat(70 * 1024) });
      expect([400, 413]).toContain(response.status);
      expect(response.body.error).toBe('invalid_request');
    });

    it('keeps a token header decodable by every library: alg, typ at+jwt and kid', () => {
      expect(decodeProtectedHeader(clientToken)).toEqual({ alg: 'RS256', typ: 'at+jwt', kid: expect.any(String) });
    });
  });
});
