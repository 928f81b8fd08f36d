import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { signInWithCode } from '../support/code-flow';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, request, requestToken, userAccessToken, type HttpResponse } from '../support/http';
import { API1, TOKEN_EXCHANGE, type ClientCredentials } from '../support/token-lifecycle';

const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const JWT = 'urn:ietf:params:oauth:token-type:jwt';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
const PARTNER = 'https://as.partner.demo.example';
const PARTNER_API = 'https://api.partner.demo.example/';

/** docs/chaining.md#issuing-grants-for-partner-authorization-servers: token exchange for a partner authorization server, on the real service and PostgreSQL. */
describe('token exchange issuing ID-JAGs and identity-chaining grants', () => {
  let server: TestServer;
  const signedIn = { clientId: uniqueName('rp'), secret: 'rp-secret' };
  const stranger = { clientId: uniqueName('stranger'), secret: 'stranger-secret' };
  const redirectUri = 'http://127.0.0.1:5199/callback';
  let aliceForApi1: string;

  const exchange = (client: ClientCredentials, subjectToken: string, form: Record<string, string | string[]> = {}): Promise<HttpResponse> =>
    requestToken(server.url, client.clientId, client.secret, {
      grant_type: TOKEN_EXCHANGE,
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN,
      requested_token_type: ID_JAG,
      audience: PARTNER,
      ...form,
    });

  beforeAll(async () => {
    server = await startTestServer({ CACHE_TTL_SECONDS: '1' });
    await insertClient({
      ...signedIn,
      secrets: [{ secret: signedIn.secret }],
      grantTypes: ['authorization_code', TOKEN_EXCHANGE],
      scopes: ['openid', 'profile'],
      redirectUris: [redirectUri],
    });
    await insertClient({ ...stranger, secrets: [{ secret: stranger.secret }], grantTypes: [TOKEN_EXCHANGE], scopes: ['openid', 'api2'] });
    await sql(`INSERT INTO partner_authorization_server_clients (issuer, client_id, partner_client_id) VALUES ($1, $2, 'rp-at-partner')`, [
      PARTNER,
      signedIn.clientId,
    ]);
    await sql(`INSERT INTO partner_authorization_servers (issuer, resources) VALUES ('https://elsewhere.example', '{}')`);
    await sql(`INSERT INTO partner_authorization_server_clients (issuer, client_id, partner_client_id) VALUES ('https://elsewhere.example', $1, 'x')`, [
      stranger.clientId,
    ]);
    aliceForApi1 = await userAccessToken(server.url, 'alice', 'openid profile api1');
  });
  afterAll(() => server?.close());

  it('discovery lists both token types', async () => {
    const { body } = await request(`${server.url}/.well-known/openid-configuration`);
    expect(body.identity_chaining_requested_token_types_supported).toEqual([ID_JAG, JWT]);
  });

  it('issues an ID-JAG for the partner from an access token addressed to the client', async () => {
    const response = await exchange(API1, aliceForApi1, { resource: PARTNER_API, scope: 'openid profile' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'N_A', issued_token_type: ID_JAG, scope: 'openid profile' });
    expect(response.body.expires_in).toBeLessThanOrEqual(300);
    expect(response.body.refresh_token).toBeUndefined();
    const [header] = response.body.access_token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ typ: 'oauth-id-jag+jwt', kid: expect.any(String) as string });
    const grant = jwtPayload(response.body.access_token);
    expect(grant).toMatchObject({ iss: ISSUER, sub: '1', aud: PARTNER, client_id: 'api1-at-partner', scope: 'openid profile', resource: PARTNER_API });
    expect(grant.jti).toEqual(expect.any(String));
    expect(grant.exp - grant.iat).toBeLessThanOrEqual(300);
    expect(grant.auth_time).toEqual(jwtPayload(aliceForApi1).auth_time);
  });

  it('issues the identity-chaining JWT grant from the ID token of a sign-in', async () => {
    const { tokens } = await signInWithCode({ baseUrl: server.url, ...signedIn, redirectUri, username: 'alice', password: 'alice', scope: 'openid profile' });
    const response = await exchange(signedIn, tokens.body.id_token, { subject_token_type: ID_TOKEN, requested_token_type: JWT });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'N_A', issued_token_type: JWT });
    const [header] = response.body.access_token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString()).typ).toBe('JWT');
    expect(jwtPayload(response.body.access_token)).toMatchObject({ sub: '1', aud: PARTNER, client_id: 'rp-at-partner' });
    expect(jwtPayload(response.body.access_token).scope).toBeUndefined();
    // Another client's ID token is refused.
    expectTokenError(await exchange(API1, tokens.body.id_token, { subject_token_type: ID_TOKEN }), 400, 'invalid_request');
  });

  it('refuses the ID token of a session that has ended (logout)', async () => {
    const { browser, tokens } = await signInWithCode({ baseUrl: server.url, ...signedIn, redirectUri, username: 'alice', password: 'alice', scope: 'openid' });
    const idToken: string = tokens.body.id_token;
    expect((await exchange(signedIn, idToken, { subject_token_type: ID_TOKEN, requested_token_type: JWT })).status).toBe(200);
    expect((await browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: idToken })}`)).status).toBe(200);
    const refused = await exchange(signedIn, idToken, { subject_token_type: ID_TOKEN, requested_token_type: JWT });
    // RFC 8693 §2.2.2: an invalid subject token is invalid_request.
    expectTokenError(refused, 400, 'invalid_request');
    expect(refused.body.error_description).toContain('has ended');
  });

  it('refuses an audience that is no partner, or one the client may not target, and a resource the partner does not serve', async () => {
    const control = await exchange(API1, aliceForApi1);
    expect(control.status).toBe(200);
    expectTokenError(await exchange(API1, aliceForApi1, { audience: 'https://unknown.example' }), 400, 'invalid_target');
    expectTokenError(await exchange(API1, aliceForApi1, { audience: 'https://elsewhere.example' }), 400, 'invalid_target');
    expectTokenError(await exchange(API1, aliceForApi1, { resource: 'https://api.other.example/' }), 400, 'invalid_target');
    expectTokenError(await exchange(API1, aliceForApi1, { audience: [PARTNER, 'https://elsewhere.example'] }), 400, 'invalid_target');
    expectTokenError(await exchange(API1, aliceForApi1, { audience: [] }), 400, 'invalid_request');
  });

  it('refuses a client no partner knows (unauthorized_client), and subject tokens that are invalid or not addressed to the client', async () => {
    const notes = { clientId: 'notes-mcp', secret: 'notes-mcp-secret' };
    expectTokenError(await exchange(notes, aliceForApi1), 400, 'unauthorized_client');
    expectTokenError(await exchange(API1, `${aliceForApi1.slice(0, -4)}AAAA`), 400, 'invalid_request');
    const forFrontend = await userAccessToken(server.url, 'alice', 'openid profile');
    expectTokenError(await exchange(API1, forFrontend), 400, 'invalid_request');
    const bobs = await userAccessToken(server.url, 'bob', 'openid api1');
    expect((await exchange(API1, bobs)).status).toBe(200);
    await sql('UPDATE users SET enabled = false WHERE subject_id = $1', ['2']);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1100)); // CACHE_TTL_SECONDS
      expectTokenError(await exchange(API1, bobs), 400, 'invalid_request');
    } finally {
      await sql('UPDATE users SET enabled = true WHERE subject_id = $1', ['2']);
    }
  });
});
