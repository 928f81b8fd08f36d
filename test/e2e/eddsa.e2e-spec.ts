import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { createApp } from '../../src/app.factory';
import { emptyDatabase, ISSUER, testConfig } from '../support/create-test-app';
import { request, requestToken, userAccessToken } from '../support/http';

/** SIGNING_ALG=EdDSA (Ed25519), on a database of its own so the run's shared key set stays RS256. */
describe('SIGNING_ALG=EdDSA', () => {
  let database: { url: string; drop: () => Promise<void> };
  let app: Awaited<ReturnType<typeof createApp>>;
  let url: string;

  beforeAll(async () => {
    database = await emptyDatabase();
    app = await createApp(testConfig({ DATABASE_URL: database.url, SIGNING_ALG: 'EdDSA' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('publishes an Ed25519 key and signs access tokens with it; delegation and userinfo accept them', async () => {
    const jwks = (await request(`${url}/.well-known/openid-configuration/jwks`)).body;
    // Beside it the RS256 key of ID tokens (docs/tokens.md#id-token-signing).
    const ed25519 = { kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: expect.any(String), alg: 'EdDSA', use: 'sig' };
    const rsa = { kty: 'RSA', n: expect.any(String), e: 'AQAB', kid: expect.any(String), alg: 'RS256', use: 'sig' };
    expect(jwks.keys).toEqual(expect.arrayContaining([ed25519, rsa]));
    expect(jwks.keys).toHaveLength(2);
    expect((await request(`${url}/.well-known/openid-configuration`)).body.id_token_signing_alg_values_supported).toEqual(['EdDSA', 'RS256']);

    const userToken = await userAccessToken(url, 'alice', 'openid profile api1');
    const kid = jwks.keys.find((key: { alg: string }) => key.alg === 'EdDSA').kid;
    expect(decodeProtectedHeader(userToken)).toEqual({ alg: 'EdDSA', typ: 'at+jwt', kid });
    const delegated = await requestToken(url, 'api1', 'api1-secret', { grant_type: 'delegation', token: userToken, scope: 'api2' });
    expect(delegated.status).toBe(200);
    const { payload } = await jwtVerify(delegated.body.access_token, createRemoteJWKSet(new URL(`${url}/.well-known/openid-configuration/jwks`)), {
      issuer: ISSUER,
      audience: 'api2',
      typ: 'at+jwt',
      algorithms: ['EdDSA'],
    });
    expect(payload).toMatchObject({ sub: '1', client_id: 'api1', act: { client_id: 'api1' } });

    const userinfo = await request(`${url}/connect/userinfo`, { headers: { authorization: `Bearer ${userToken}` } });
    expect(userinfo.status).toBe(200);
    expect(userinfo.body.sub).toBe('1');
  });

  it('refuses a token whose EdDSA signature was tampered with', async () => {
    const userToken = await userAccessToken(url, 'bob', 'openid api1');
    const [header, payload, signature] = userToken.split('.');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`;
    const response = await requestToken(url, 'api1', 'api1-secret', { grant_type: 'delegation', token: `${header}.${payload}.${flipped}`, scope: 'api2' });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
  });
});
