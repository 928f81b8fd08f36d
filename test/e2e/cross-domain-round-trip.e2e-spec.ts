import { emptyDatabase, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError } from '../support/fixtures';
import { jwtPayload, requestToken, userAccessToken } from '../support/http';
import { API1, TOKEN_EXCHANGE } from '../support/token-lifecycle';
import { Client } from 'pg';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
const ISSUER_A = 'http://tollgate-a.test';
const ISSUER_B = 'http://tollgate-b.test';
const NOTES_AT_B = 'http://127.0.0.1:5180/mcp';
const AGENT_AT_B = { clientId: 'enterprise-agent', secret: 'enterprise-agent-secret' };

/**
 * docs/chaining.md: two Tollgate instances, two issuers, two databases. A's API 1 exchanges the
 * user's token for an ID-JAG addressed to B; B's agent (API 1 is known there as enterprise-agent)
 * redeems it with the jwt-bearer grant, verifying it with A's published keys.
 */
describe('across trust domains: instance A issues an ID-JAG, instance B redeems it', () => {
  let a: TestServer;
  let b: TestServer;
  let databaseB: { url: string; drop: () => Promise<void> };
  const sqlB = async (text: string, values: unknown[] = []) => {
    const client = new Client({ connectionString: databaseB.url });
    await client.connect();
    try {
      await client.query(text, values);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    databaseB = await emptyDatabase();
    a = await startTestServer({ ISSUER: ISSUER_A, CACHE_TTL_SECONDS: '1' });
    b = await startTestServer({ ISSUER: ISSUER_B, DATABASE_URL: databaseB.url, CACHE_TTL_SECONDS: '1' });
    // At A: B's authorization server is a partner, where A's api1 is known as enterprise-agent.
    await sql(`INSERT INTO partner_authorization_servers (issuer, resources) VALUES ($1, $2)`, [ISSUER_B, [NOTES_AT_B]]);
    await sql(`INSERT INTO partner_authorization_server_clients (issuer, client_id, partner_client_id) VALUES ($1, 'api1', $2)`, [
      ISSUER_B,
      AGENT_AT_B.clientId,
    ]);
    // At B: A is an authorization-grant issuer whose keys are at its jwks_uri, matched by sub, trusted by the agent.
    await sqlB(`INSERT INTO trusted_issuers (issuer, role, kind, jwks_uri) VALUES ($1, 'authorization-grant', 'jwt', $2)`, [
      ISSUER_A,
      `${a.url}/.well-known/openid-configuration/jwks`,
    ]);
    await sqlB(`INSERT INTO authorization_grant_issuers (issuer, user_claim, identity_scopes) VALUES ($1, 'sub', '{openid,profile}')`, [ISSUER_A]);
    await sqlB('INSERT INTO client_authorization_grant_issuers (client_id, issuer) VALUES ($1, $2)', [AGENT_AT_B.clientId, ISSUER_A]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await databaseB?.drop();
  });

  it('the ID-JAG of A becomes an access token of B for the same user, addressed to the resource it names', async () => {
    const userToken = await userAccessToken(a.url, 'alice', 'openid profile api1');
    const exchanged = await requestToken(a.url, API1.clientId, API1.secret, {
      grant_type: TOKEN_EXCHANGE,
      subject_token: userToken,
      subject_token_type: ACCESS_TOKEN,
      requested_token_type: ID_JAG,
      audience: ISSUER_B,
      resource: NOTES_AT_B,
    });
    expect(exchanged.status).toBe(200);
    expect(jwtPayload(exchanged.body.access_token)).toMatchObject({ iss: ISSUER_A, aud: ISSUER_B, client_id: AGENT_AT_B.clientId, resource: NOTES_AT_B });

    const redeemed = await requestToken(b.url, AGENT_AT_B.clientId, AGENT_AT_B.secret, { grant_type: JWT_BEARER, assertion: exchanged.body.access_token });
    expect(redeemed.status).toBe(200);
    const token = jwtPayload(redeemed.body.access_token);
    expect(token).toMatchObject({ iss: ISSUER_B, sub: '1', aud: NOTES_AT_B, client_id: AGENT_AT_B.clientId, amr: [JWT_BEARER] });
    expect(token.auth_time).toBe(jwtPayload(userToken).auth_time);
    expect(redeemed.body.scope.split(' ').sort()).toEqual(['notes', 'openid', 'profile']);

    // Once only, and never at A, whose issuer is not its audience.
    expectTokenError(
      await requestToken(b.url, AGENT_AT_B.clientId, AGENT_AT_B.secret, { grant_type: JWT_BEARER, assertion: exchanged.body.access_token }),
      400,
      'invalid_grant',
    );
    expectTokenError(
      await requestToken(a.url, AGENT_AT_B.clientId, AGENT_AT_B.secret, { grant_type: JWT_BEARER, assertion: exchanged.body.access_token }),
      400,
      'invalid_grant',
    );
  });
});
