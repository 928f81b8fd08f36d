import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { Browser } from '../support/browser';
import { emptyDatabase, ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { request } from '../support/http';

/**
 * The check Authlib's OpenIDProviderMetadata.validate_id_token_signing_alg_values_supported makes
 * (OpenID Connect Discovery §3: "The algorithm RS256 MUST be included"); Authlib refuses the whole
 * document when it fails.
 */
function authlibIdTokenAlgorithmsProblem(metadata: Record<string, unknown>): string | undefined {
  const values = metadata.id_token_signing_alg_values_supported;
  if (!Array.isArray(values)) return 'id_token_signing_alg_values_supported is required';
  if (!values.includes('RS256')) return 'RS256 MUST be included in id_token_signing_alg_values_supported';
  return undefined;
}

/**
 * SIGNING_ALG other than RS256 (docs/tokens.md#id-token-signing): access tokens use it, ID tokens are
 * signed with an RS256 key kept beside it, so discovery's promise of RS256 is kept. A database of its
 * own, so the run's shared key set stays RS256 only.
 */
describe('ID tokens with SIGNING_ALG=ES256', () => {
  let database: { url: string; drop: () => Promise<void> };
  let server: TestServer;
  beforeAll(async () => {
    database = await emptyDatabase();
    server = await startTestServer({ DATABASE_URL: database.url, SIGNING_ALG: 'ES256' });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('lists RS256 among the ID-token algorithms, as Authlib demands, and publishes a key for each listed algorithm', async () => {
    const metadata = (await request(`${server.url}/.well-known/openid-configuration`)).body;
    expect(authlibIdTokenAlgorithmsProblem(metadata)).toBeUndefined();
    expect([...metadata.id_token_signing_alg_values_supported].sort()).toEqual(['ES256', 'RS256']);
    const jwks: JSONWebKeySet = (await request(`${server.url}/.well-known/openid-configuration/jwks`)).body;
    expect(jwks.keys.map((key) => [key.alg, key.kty]).sort()).toEqual([
      ['ES256', 'EC'],
      ['RS256', 'RSA'],
    ]);
  });

  it('signs ID tokens with the RS256 key and access tokens with ES256; openid-client accepts them, and so does a verifier allowing only RS256', async () => {
    const config = await oidc.discovery(new URL(ISSUER), 'spa', undefined, oidc.None(), {
      [oidc.customFetch]: (url, options) => fetch(url.replace(ISSUER, server.url), options as RequestInit),
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: 'http://127.0.0.1:5173/callback',
      scope: 'openid offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
    });
    const browser = new Browser();
    const login = await browser.get(url.href.replace(ISSUER, server.url));
    const callback = await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback.headers.get('location')!), {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });

    const jwks = createLocalJWKSet((await request(`${server.url}/.well-known/openid-configuration/jwks`)).body);
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, { issuer: ISSUER, audience: 'spa', algorithms: ['RS256'] });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: '1', nonce });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(decodeProtectedHeader(refreshed.id_token!).alg).toBe('RS256');
  });
});
