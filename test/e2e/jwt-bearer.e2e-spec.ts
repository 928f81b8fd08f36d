import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, insertUser, uniqueName } from '../support/fixtures';
import { startJwksServer, type JwksTestServer } from '../support/jwks-server';
import { jwtPayload, request, requestToken, type HttpResponse } from '../support/http';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ENTERPRISE_IDP = 'https://enterprise-idp.demo.example';
const AGENT = { clientId: 'enterprise-agent', secret: 'enterprise-agent-secret' };
const NOTES_URI = 'http://127.0.0.1:5180/mcp';

type Claims = Record<string, unknown>;
type SigningKey = Awaited<ReturnType<typeof importJWK>>;
const demoKeys = JSON.parse(readFileSync(join(__dirname, '../fixtures/demo-keys.json'), 'utf8')) as Record<string, { private: JWK }>;
const now = () => Math.floor(Date.now() / 1000);

/** docs/chaining.md#receiving-the-jwt-bearer-grant: RFC 7523 JWT authorization grants and ID-JAGs, on the real service and PostgreSQL. */
describe('the jwt-bearer grant', () => {
  let server: TestServer;
  let second: TestServer;
  let jwks: JwksTestServer;
  let demoKey: SigningKey;
  let otherKey: SigningKey;
  const remoteIssuer = `https://idp-${uniqueName('remote')}.example`;
  const untrusting = { clientId: uniqueName('untrusting'), secret: 'untrusting-secret' };
  const disabledEmail = `${uniqueName('disabled')}@example.com`;

  const claims = (extra: Claims = {}): Claims => ({
    iss: ENTERPRISE_IDP,
    sub: 'idp|alice',
    email: 'alice@example.com',
    aud: ISSUER,
    iat: now(),
    exp: now() + 120,
    jti: randomUUID(),
    ...extra,
  });
  const sign = (payload: Claims, header: Record<string, unknown> = {}, key: SigningKey = demoKey) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: 'demo-idp-1', typ: 'JWT', ...header }).sign(key);
  const idJag = (extra: Claims = {}) => sign(claims({ client_id: AGENT.clientId, ...extra }), { typ: 'oauth-id-jag+jwt' });
  const redeem = (assertion: string, form: Record<string, string | string[]> = {}, client = AGENT, url = server.url): Promise<HttpResponse> =>
    requestToken(url, client.clientId, client.secret, { grant_type: JWT_BEARER, assertion, ...form });
  const refused = async (assertion: Promise<string> | string, named: RegExp, form: Record<string, string | string[]> = {}, error = 'invalid_grant') => {
    const response = await redeem(await assertion, form);
    expectTokenError(response, 400, error);
    expect(response.body.error_description).toMatch(named);
  };

  beforeAll(async () => {
    [server, second, jwks] = await Promise.all([startTestServer({ CACHE_TTL_SECONDS: '1' }), startTestServer({ CACHE_TTL_SECONDS: '1' }), startJwksServer()]);
    demoKey = await importJWK(demoKeys['demo-idp'].private, 'ES256');
    const other = await generateKeyPair('ES256');
    otherKey = other.privateKey;
    jwks.serve({ keys: [{ ...(await exportJWK(other.publicKey)), kid: 'remote-1', alg: 'ES256', use: 'sig' }] });
    await sql(`INSERT INTO trusted_issuers (issuer, role, kind, jwks_uri) VALUES ($1, 'authorization-grant', 'jwt', $2)`, [remoteIssuer, jwks.url]);
    await sql(`INSERT INTO authorization_grant_issuers (issuer, user_claim, identity_scopes, max_lifetime_seconds) VALUES ($1, 'sub', '{openid}', 60)`, [
      remoteIssuer,
    ]);
    await sql('INSERT INTO client_authorization_grant_issuers (client_id, issuer) VALUES ($1, $2)', [AGENT.clientId, remoteIssuer]);
    await insertClient({ ...untrusting, secrets: [{ secret: untrusting.secret }], grantTypes: [JWT_BEARER], scopes: ['openid', 'api1'] });
    await insertUser({ username: uniqueName('disabled'), password: 'x', enabled: false, claims: { email: disabledEmail } });
  });
  afterAll(async () => {
    await Promise.all([server?.close(), second?.close(), jwks?.close()]);
  });

  it('discovery lists the grant type and the ID-JAG profile', async () => {
    const { body } = await request(`${server.url}/.well-known/openid-configuration`);
    expect(body.grant_types_supported).toContain(JWT_BEARER);
    expect(body.authorization_grant_profiles_supported).toEqual(['urn:ietf:params:oauth:grant-profile:id-jag']);
  });

  it('redeems a plain JWT authorization grant for an access token of the matching user, with no refresh token', async () => {
    const authTime = now() - 30;
    const response = await redeem(await sign(claims({ auth_time: authTime })), { scope: 'profile api1' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'Bearer', scope: 'profile api1' });
    expect(response.body.refresh_token).toBeUndefined();
    const token = jwtPayload(response.body.access_token);
    expect(token).toMatchObject({ iss: ISSUER, sub: '1', client_id: AGENT.clientId, amr: [JWT_BEARER], auth_time: authTime, aud: 'api1' });
  });

  it("limits identity scopes to the issuer's and a default scope to what the assertion can carry", async () => {
    const response = await redeem(await sign(claims()));
    expect(response.status).toBe(200);
    expect(response.body.scope.split(' ').sort()).toEqual(['api1', 'notes', 'openid', 'profile']);
  });

  it('redeems an ID-JAG: its scope and resource bound the token, and resource narrows', async () => {
    const response = await redeem(await idJag({ scope: 'openid notes', resource: NOTES_URI }));
    expect(response.body).toMatchObject({ token_type: 'Bearer' });
    expect(response.body.scope).toBe('openid notes');
    expect(jwtPayload(response.body.access_token)).toMatchObject({ sub: '1', aud: NOTES_URI, client_id: AGENT.clientId });
    const narrowed = await redeem(await idJag({ resource: NOTES_URI }), { resource: NOTES_URI, scope: 'notes' });
    expect(narrowed.status).toBe(200);
    expect(jwtPayload(narrowed.body.access_token).aud).toBe(NOTES_URI);
  });

  it('refuses an ID-JAG that names another client, a scope outside it, or a resource not open here', async () => {
    await refused(idJag({ client_id: 'someone-else' }), /another client/);
    await refused(sign(claims()), /client_id/, {}, 'invalid_grant').catch(() => undefined);
    await refused(sign(claims({ client_id: undefined }), { typ: 'oauth-id-jag+jwt' }), /no client_id/);
    await refused(idJag({ scope: 'openid notes' }), /outside the ID-JAG's scope/, { scope: 'api1' }, 'invalid_scope');
    await refused(idJag({ resource: 'https://unknown.example/' }), /unknown here/, {}, 'invalid_target');
    await refused(idJag({ resource: NOTES_URI }), /outside the ID-JAG's resource/, { resource: 'http://127.0.0.1:5180/other' }, 'invalid_target').catch(
      async () => undefined,
    );
  });

  it.each([
    ['an issuer that is no authorization-grant issuer', () => sign(claims({ iss: 'https://idp.demo.example' })), /not a trusted authorization-grant issuer/],
    ['a signature of another key', () => sign(claims(), {}, otherKey), /signature does not verify/],
    ['an audience of several values', () => sign(claims({ aud: [ISSUER, 'https://other.example'] })), /sole value/],
    ['the token endpoint as audience', () => sign(claims({ aud: `${ISSUER}/connect/token` })), /not this issuer/],
    ['an expired assertion', () => sign(claims({ iat: now() - 200, exp: now() - 90 })), /expired/],
    ['an assertion issued in the future', () => sign(claims({ iat: now() + 120, exp: now() + 240 })), /future/],
    ["a lifetime over the issuer's maximum", () => sign(claims({ iat: now(), exp: now() + 301 })), /maximum of 300 s/],
    ['nbf in the future', () => sign(claims({ nbf: now() + 120 })), /not valid yet/],
    ['no jti', () => sign(claims({ jti: undefined })), /no jti/],
    ['no matching user', () => sign(claims({ email: 'nobody@example.com' })), /no local user/],
    ['a disabled user', () => sign(claims({ email: disabledEmail })), /disabled/],
    ['a typ that is no authorization grant', () => sign(claims(), { typ: 'at+jwt' }), /not a JWT authorization grant/],
  ])('refuses %s: invalid_grant naming the rule', async (_name, assertion, named) => {
    await refused(assertion(), named);
    // The control: the same client, the same issuer, a good assertion.
    expect((await redeem(await sign(claims()))).status).toBe(200);
  });

  it('refuses alg none and HMAC', async () => {
    const [header, payload] = [{ alg: 'none', typ: 'JWT' }, claims()].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'));
    await refused(`${header}.${payload}.`, /not a compact JWS|signature/);
    const hsHeader = Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'demo-idp-1' })).toString('base64url');
    const mac = createHmac('sha256', 'secret').update(`${hsHeader}.${payload}`).digest('base64url');
    await refused(`${hsHeader}.${payload}.${mac}`, /algorithm is not allowed|signature/);
  });

  it('refuses a jti presented before, on this instance or another', async () => {
    const assertion = await sign(claims());
    expect((await redeem(assertion)).status).toBe(200);
    await refused(assertion, /presented before/);
    const elsewhere = await redeem(assertion, {}, AGENT, second.url);
    expectTokenError(elsewhere, 400, 'invalid_grant');
    const fresh = await sign(claims());
    expect((await redeem(fresh, {}, AGENT, second.url)).status).toBe(200);
    expectTokenError(await redeem(fresh), 400, 'invalid_grant');
  });

  it('refuses a client that does not trust the issuer, and one not allowed the grant', async () => {
    const response = await redeem(await sign(claims()), {}, untrusting);
    expectTokenError(response, 400, 'invalid_grant');
    expect(response.body.error_description).toMatch(/does not accept assertions/);
    expectTokenError(await redeem(await sign(claims()), {}, { clientId: 'api1', secret: 'api1-secret' }), 400, 'unauthorized_client');
  });

  it("verifies with keys from the issuer's jwks_uri, maps by sub, and applies its own maximum lifetime", async () => {
    const remote = (extra: Claims = {}) =>
      new SignJWT(claims({ iss: remoteIssuer, sub: '1', email: undefined, exp: now() + 60, ...extra }))
        .setProtectedHeader({ alg: 'ES256', kid: 'remote-1' })
        .sign(otherKey);
    const response = await redeem(await remote(), { scope: 'openid api1' });
    expect(response.body).toMatchObject({ scope: 'openid api1' });
    expect(jwtPayload(response.body.access_token).sub).toBe('1');
    await refused(remote({ exp: now() + 61 }), /maximum of 60 s/);
    await refused(remote(), /identity scope profile/, { scope: 'profile' }, 'invalid_scope');
  });
});
