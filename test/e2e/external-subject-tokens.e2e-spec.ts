import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecordingAuditSink } from '../../src/platform/audit/recording-audit.sink';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { startJwksServer, type JwksTestServer } from '../support/jwks-server';
import { jwtPayload, requestToken, type HttpResponse } from '../support/http';
import { ACCESS_TOKEN_TYPE, API1, TOKEN_EXCHANGE, type ClientCredentials } from '../support/token-lifecycle';

const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
const TXN_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:txn_token';
const DEMO_IDP = 'https://idp.demo.example';

type Claims = Record<string, unknown>;
const demoKeys = JSON.parse(readFileSync(join(__dirname, '../fixtures/demo-keys.json'), 'utf8')) as Record<string, { private: JWK }>;

/** docs/delegation.md: subject tokens from a trusted identity provider, on the real service and PostgreSQL. */
describe('token exchange with subject tokens of a trusted subject issuer', () => {
  let server: TestServer;
  let jwks: JwksTestServer;
  const audit = new RecordingAuditSink();
  const gatewayOfTheIdp = { clientId: uniqueName('idp-gw'), secret: 'idp-gw-secret' };
  const stranger = { clientId: uniqueName('stranger'), secret: 'stranger-secret' };
  const remoteIssuer = `https://idp-${uniqueName('remote')}.example`;
  let signDemo: (claims: Claims) => Promise<string>;
  let signOther: (claims: Claims, kid?: string) => Promise<string>;
  let signRemote: (claims: Claims) => Promise<string>;
  const now = () => Math.floor(Date.now() / 1000);
  const aliceAtIdp = (claims: Claims = {}): Claims => ({
    iss: DEMO_IDP,
    aud: ['api1', 'web'],
    sub: 'idp|42',
    email: 'alice@example.com',
    iat: now(),
    exp: now() + 300,
    ...claims,
  });

  const exchange = (client: ClientCredentials, token: string, form: Record<string, string> = {}): Promise<HttpResponse> =>
    requestToken(server.url, client.clientId, client.secret, { grant_type: TOKEN_EXCHANGE, subject_token: token, subject_token_type: JWT_TOKEN_TYPE, ...form });

  beforeAll(async () => {
    [server, jwks] = await Promise.all([startTestServer({ CACHE_TTL_SECONDS: '1' }, { auditSink: audit }), startJwksServer()]);
    const demoPrivate = await importJWK(demoKeys['demo-idp'].private, 'ES256');
    signDemo = (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'demo-idp-1', typ: 'JWT' }).sign(demoPrivate);
    const other = await generateKeyPair('ES256');
    signOther = (claims, kid = 'demo-idp-1') => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).sign(other.privateKey);
    // A second subject issuer whose keys come from a jwks_uri.
    jwks.serve({ keys: [{ ...(await exportJWK(other.publicKey)), kid: 'remote-1', alg: 'ES256', use: 'sig' }] });
    signRemote = (claims) => new SignJWT({ ...claims, iss: remoteIssuer }).setProtectedHeader({ alg: 'ES256', kid: 'remote-1' }).sign(other.privateKey);
    await sql(
      `INSERT INTO trusted_issuers (issuer, role, kind, jwks_uri, subject_audience, subject_user_claim, subject_identity_scopes)
       VALUES ($1, 'subject', 'jwt', $2, 'api1', 'email', '{openid}')`,
      [remoteIssuer, jwks.url],
    );
    await sql('INSERT INTO client_subject_issuers (client_id, issuer) VALUES ($1, $2)', ['api1', remoteIssuer]);
    await insertClient({ ...gatewayOfTheIdp, secrets: [{ secret: gatewayOfTheIdp.secret }], grantTypes: [TOKEN_EXCHANGE], scopes: ['openid', 'api1'] });
    await insertClient({ ...stranger, secrets: [{ secret: stranger.secret }], grantTypes: [TOKEN_EXCHANGE], scopes: ['openid', 'api2'] });
    await sql('UPDATE clients SET transaction_tokens = true WHERE client_id = $1', [gatewayOfTheIdp.clientId]);
    await sql('INSERT INTO client_subject_issuers (client_id, issuer) VALUES ($1, $2)', [gatewayOfTheIdp.clientId, DEMO_IDP]);
  });
  afterAll(async () => {
    await server?.close();
    await jwks?.close();
  });

  it("exchanges the identity provider's token for an API 2 token for the matching local user, act naming api1", async () => {
    const external = await signDemo(aliceAtIdp({ exp: now() + 120, auth_time: now() - 10 }));
    const response = await exchange(API1, external, { scope: 'openid profile api2' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      scope: 'openid profile api2',
      issued_token_type: ACCESS_TOKEN_TYPE,
    });
    const issued = jwtPayload(response.body.access_token);
    expect(issued).toMatchObject({ sub: '1', client_id: 'api1', aud: 'api2', act: { client_id: 'api1' }, auth_time: jwtPayload(external).auth_time });
    // Never outlives the subject token.
    expect(issued.exp).toBeLessThanOrEqual(jwtPayload(external).exp);
    expect(audit.events).toContainEqual(
      expect.objectContaining({ name: 'token.issued', clientId: 'api1', subject: '1', actors: ['api1'], subjectIssuer: DEMO_IDP }),
    );
  });

  it('accepts the access_token token type too, and defaults the identity scopes to the issuer’s list', async () => {
    const response = await exchange(API1, await signDemo(aliceAtIdp()), { subject_token_type: ACCESS_TOKEN_TYPE });
    expect(response.status).toBe(200);
    expect(response.body.scope).toBe('openid profile api2');
  });

  it('refuses an identity scope beyond the issuer’s list as invalid_scope', async () => {
    expectTokenError(await exchange(API1, await signDemo(aliceAtIdp()), { scope: 'role api2' }), 400, 'invalid_scope');
  });

  it.each<[string, () => Promise<string>]>([
    ['signed with another key', () => signOther(aliceAtIdp())],
    ['whose aud lacks the expected audience', () => signDemo(aliceAtIdp({ aud: ['api2'] }))],
    ['that has expired', () => signDemo(aliceAtIdp({ iat: now() - 600, exp: now() - 120 }))],
    ['that is not yet valid', () => signDemo(aliceAtIdp({ nbf: now() + 600 }))],
    ['without exp', () => signDemo(aliceAtIdp({ exp: undefined }))],
    ['of an issuer no one registered', () => signDemo(aliceAtIdp({ iss: 'https://idp.evil.example' }))],
    ['whose email matches no local user', () => signDemo(aliceAtIdp({ email: 'mallory@example.com' }))],
    ['without the matching claim', () => signDemo(aliceAtIdp({ email: undefined }))],
    ['whose may_act names another client', () => signDemo(aliceAtIdp({ may_act: { client_id: 'api3' } }))],
  ])('refuses a subject token %s as invalid_request', async (_, token) => {
    expectTokenError(await exchange(API1, await token(), { scope: 'api2' }), 400, 'invalid_request');
  });

  it('matches only the one local user whose claim is the same string: two users sharing it, or a non-string claim, match no one', async () => {
    const [shared, listed] = [`${uniqueName('twin')}@example.com`, `${uniqueName('listed')}@example.com`];
    for (const [name, claims] of [
      [uniqueName('twin-a'), { email: shared }],
      [uniqueName('twin-b'), { email: shared }],
      [uniqueName('listed'), { email: [listed] }],
    ] as const) {
      await sql("INSERT INTO users (subject_id, username, password_hash, claims) VALUES ($1, $1, '', $2)", [name, JSON.stringify(claims)]);
    }
    for (const email of [shared, listed])
      expectTokenError(await exchange(API1, await signDemo(aliceAtIdp({ email })), { scope: 'api2' }), 400, 'invalid_request');
    await sql("DELETE FROM users WHERE claims ->> 'email' = $1", [shared]);
    const single = uniqueName('single');
    await sql("INSERT INTO users (subject_id, username, password_hash, claims) VALUES ($1, $1, '', $2)", [single, JSON.stringify({ email: shared })]);
    const response = await exchange(API1, await signDemo(aliceAtIdp({ email: shared })), { scope: 'api2' });
    expect(response.status).toBe(200);
    expect(jwtPayload(response.body.access_token).sub).toBe(single);
  });

  it('accepts a subject token whose may_act names the exchanging client', async () => {
    expect((await exchange(API1, await signDemo(aliceAtIdp({ may_act: { client_id: 'api1' } })), { scope: 'api2' })).status).toBe(200);
  });

  it('is trusted only by the clients that trust the issuer', async () => {
    expectTokenError(await exchange(stranger, await signDemo(aliceAtIdp({ aud: ['api1', stranger.clientId] })), { scope: 'api2' }), 400, 'invalid_request');
  });

  it('verifies with keys fetched from the issuer’s jwks_uri', async () => {
    const response = await exchange(API1, await signRemote(aliceAtIdp()), { scope: 'openid api2' });
    expect(response.status).toBe(200);
    expect(jwtPayload(response.body.access_token).sub).toBe('1');
    expectTokenError(await exchange(API1, await signRemote(aliceAtIdp()), { scope: 'profile api2' }), 400, 'invalid_scope');
  });

  it('is accepted as the subject of a transaction token by a client that trusts the issuer', async () => {
    const external = await signDemo(aliceAtIdp());
    const response = await exchange(gatewayOfTheIdp, external, { requested_token_type: TXN_TOKEN_TYPE, scope: 'openid' });
    expect(response.status).toBe(200);
    expect(jwtPayload(response.body.access_token)).toMatchObject({ sub: '1', scope: 'openid', req_wl: gatewayOfTheIdp.clientId });
    expectTokenError(
      await exchange(gatewayOfTheIdp, await signDemo(aliceAtIdp({ may_act: { client_id: 'api1' } })), { requested_token_type: TXN_TOKEN_TYPE }),
      400,
      'invalid_request',
    );
  });

  it('is not accepted by the delegation grant', async () => {
    const response = await requestToken(server.url, API1.clientId, API1.secret, {
      grant_type: 'delegation',
      token: await signDemo(aliceAtIdp()),
      scope: 'api2',
    });
    expectTokenError(response, 400, 'invalid_grant');
  });
});
