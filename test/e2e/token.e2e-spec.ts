import { createRemoteJWKSet, jwtVerify } from 'jose';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { jwtPayload, requestToken, userAccessToken } from '../support/http';

describe('POST /connect/token — delegation walk-through', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("exchanges alice's token as api1 for an api2 token that names api1 as actor", async () => {
    const subjectToken = await userAccessToken(server.url);
    const response = await requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token: subjectToken, scope: 'api2' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: expect.any(Number), scope: 'api2' });

    const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
    const { payload, protectedHeader } = await jwtVerify(response.body.access_token, jwks, { issuer: ISSUER, audience: 'api2', typ: 'at+jwt' });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ sub: '1', client_id: 'api1', scope: 'api2', amr: ['delegation'], act: { client_id: 'api1' } });
    expect(payload.auth_time).toBe(jwtPayload(subjectToken).auth_time);
  });
});
