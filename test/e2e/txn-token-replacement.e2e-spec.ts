import { setTimeout as sleep } from 'node:timers/promises';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, insertUser, uniqueName } from '../support/fixtures';
import { jwtPayload, requestToken, type HttpResponse } from '../support/http';
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE, eventually, passwordTokens, revoke, userinfo, type ClientCredentials } from '../support/token-lifecycle';

const TXN_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:txn_token';
const TRUST_DOMAIN = 'https://mesh.tollgate.test';
const GATEWAY: ClientCredentials = { clientId: 'gateway', secret: 'gateway-secret' };

/**
 * docs/transaction-tokens.md#replacement: a chain of replacements ends with its subject token. Each
 * replacement expires no later than the access token the transaction began with, and none is issued
 * once that token has expired or been revoked, or its user disabled — on either instance.
 */
describe('transaction-token replacement never outlives its subject token', () => {
  let a: TestServer;
  let b: TestServer;
  const orders: ClientCredentials = { clientId: uniqueName('orders'), secret: 'orders-secret' };
  const shortLived: ClientCredentials = { clientId: uniqueName('short'), secret: 'short-secret' };

  const txn = (server: TestServer, client: ClientCredentials, subjectToken: string, subjectTokenType: string): Promise<HttpResponse> =>
    requestToken(server.url, client.clientId, client.secret, {
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: TXN_TOKEN_TYPE,
      subject_token: subjectToken,
      subject_token_type: subjectTokenType,
      scope: 'api1',
    });
  async function mint(server: TestServer, accessToken: string): Promise<string> {
    const response = await txn(server, GATEWAY, accessToken, ACCESS_TOKEN_TYPE);
    if (response.status !== 200) throw new Error(`transaction token refused: ${JSON.stringify(response.body)}`);
    return response.body.access_token;
  }
  async function replace(server: TestServer, txnToken: string, client = orders): Promise<HttpResponse> {
    return txn(server, client, txnToken, TXN_TOKEN_TYPE);
  }

  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer({ TRUST_DOMAIN, CACHE_TTL_SECONDS: '1' }), startTestServer({ TRUST_DOMAIN, CACHE_TTL_SECONDS: '1' })]);
    await insertClient({ ...orders, secrets: [{ secret: orders.secret }], grantTypes: [TOKEN_EXCHANGE], scopes: ['api1'] });
    await sql('UPDATE clients SET transaction_tokens = true WHERE client_id = $1', [orders.clientId]);
    // A front end whose access tokens live 8 seconds: long enough for four requests on a loaded machine, short enough to wait out.
    await insertClient({ ...shortLived, secrets: [{ secret: shortLived.secret }], grantTypes: ['password'], scopes: ['api1'], accessTokenLifetimeSeconds: 8 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("carries the subject token's expiry through every replacement, and refuses to replace once it has passed", async () => {
    const { access_token: accessToken } = await passwordTokens(a.url, 'api1', { client: shortLived });
    const subjectExp = jwtPayload(accessToken).exp as number;
    let current = await mint(a, accessToken);
    for (const server of [b, a, b]) {
      const replaced = await replace(server, current);
      expect(replaced.status).toBe(200);
      current = replaced.body.access_token;
      expect(jwtPayload(current).exp).toBeLessThanOrEqual(subjectExp);
      expect(replaced.body.expires_in).toBeLessThanOrEqual(8);
    }
    await sleep(Math.max(subjectExp * 1000 - Date.now(), 0) + 1100);
    // Within the 60 s of clock skew the replaced token itself is still accepted; its subject token is not.
    expectTokenError(await replace(a, current), 400, 'invalid_request');
    expectTokenError(await replace(b, current), 400, 'invalid_request');
  });

  it('refuses to replace, on either instance, once the subject token is revoked', async () => {
    const { access_token: accessToken } = await passwordTokens(a.url, 'api1');
    const first = await mint(a, accessToken);
    const second = (await replace(b, first)).body.access_token as string;
    expect((await revoke(a.url, { clientId: 'frontend', secret: 'frontend-secret' }, { token: accessToken })).status).toBe(200);
    expectTokenError(await replace(a, first), 400, 'invalid_request');
    expectTokenError(await replace(a, second), 400, 'invalid_request');
    // The other instance learns of the revocation from the shared deny list.
    await eventually(async () => (await userinfo(b.url, accessToken)).status === 401, 5000);
    expectTokenError(await replace(b, second, GATEWAY), 400, 'invalid_request');
  });

  it("refuses to replace once the subject's user is disabled", async () => {
    const username = uniqueName('dora');
    const subject = await insertUser({ username, password: 'dora-password' });
    const { access_token: accessToken } = await passwordTokens(a.url, 'api1', { username, password: 'dora-password' });
    const first = await mint(a, accessToken);
    expect((await replace(b, first)).status).toBe(200);
    await sql('UPDATE users SET enabled = false WHERE subject_id = $1', [subject]);
    await sleep(1300);
    expectTokenError(await replace(a, first), 400, 'invalid_request');
    expectTokenError(await replace(b, first), 400, 'invalid_request');
  });
});
