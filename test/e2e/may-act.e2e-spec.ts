import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, request, requestToken, type HttpResponse } from '../support/http';
import { ACCESS_TOKEN_TYPE, API1, TOKEN_EXCHANGE, eventually, introspect, passwordTokens, type ClientCredentials } from '../support/token-lifecycle';

const TXN_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:txn_token';
const GATEWAY: ClientCredentials = { clientId: 'gateway', secret: 'gateway-secret' };

/** RFC 8693 §4.4 `may_act` on our own tokens (docs/delegation.md), in both delegation grants. */
describe('may_act — who may act for the user', () => {
  let server: TestServer;
  // A front end whose tokens say only api1 may act for the user; a relay API that is not api1.
  const front = { clientId: uniqueName('front'), secret: 'front-secret' };
  const relay = { clientId: uniqueName('relay'), secret: 'relay-secret' };
  const plain = { clientId: uniqueName('plain-front'), secret: 'plain-secret' };
  let guarded: string;
  let unguarded: string;

  const delegate = (client: ClientCredentials, token: string): Promise<HttpResponse> =>
    requestToken(server.url, client.clientId, client.secret, { grant_type: 'delegation', token, scope: 'api2' });
  const exchange = (client: ClientCredentials, token: string, extra: Record<string, string> = {}): Promise<HttpResponse> =>
    requestToken(server.url, client.clientId, client.secret, {
      grant_type: TOKEN_EXCHANGE,
      subject_token: token,
      subject_token_type: ACCESS_TOKEN_TYPE,
      ...extra,
    });

  beforeAll(async () => {
    server = await startTestServer({ CACHE_TTL_SECONDS: '1' });
    // The relay is an API resource too, so front-end tokens can name it in their aud (token exchange requires that).
    await sql('INSERT INTO api_resources (name, scopes) VALUES ($1, $2)', [relay.clientId, [relay.clientId]]);
    const scopes = ['openid', 'api1', relay.clientId];
    await insertClient({ ...front, secrets: [{ secret: front.secret }], grantTypes: ['password'], scopes });
    await insertClient({ ...plain, secrets: [{ secret: plain.secret }], grantTypes: ['password'], scopes });
    await insertClient({ ...relay, secrets: [{ secret: relay.secret }], grantTypes: ['delegation', TOKEN_EXCHANGE], scopes: ['openid', 'api2'] });
    await sql('UPDATE clients SET may_act_client_id = $2 WHERE client_id = $1', [front.clientId, 'api1']);
    await eventually(async () => (await request(`${server.url}/.well-known/openid-configuration`)).body.scopes_supported.includes(relay.clientId), 5000);
    guarded = (await passwordTokens(server.url, `openid api1 ${relay.clientId}`, { client: front })).access_token;
    unguarded = (await passwordTokens(server.url, `openid api1 ${relay.clientId}`, { client: plain })).access_token;
  });
  afterAll(() => server.close());

  it("puts the client's may_act in its user tokens, and only there", async () => {
    expect(jwtPayload(guarded).may_act).toEqual({ client_id: 'api1' });
    expect(jwtPayload(unguarded).may_act).toBeUndefined();
  });

  it('lets the named client delegate and exchange the token', async () => {
    expect((await delegate(API1, guarded)).status).toBe(200);
    const exchanged = await exchange(API1, guarded, { scope: 'api2' });
    expect(exchanged.status).toBe(200);
    // The delegated token is the acting client's: it carries the actor, not the front end's may_act.
    expect(jwtPayload(exchanged.body.access_token)).toMatchObject({ act: { client_id: 'api1' } });
    expect(jwtPayload(exchanged.body.access_token).may_act).toBeUndefined();
  });

  it('refuses any other client in the delegation grant as invalid_grant', async () => {
    expectTokenError(await delegate(relay, guarded), 400, 'invalid_grant');
    expect((await delegate(relay, unguarded)).status).toBe(200);
  });

  it('refuses any other client in token exchange as invalid_request', async () => {
    expectTokenError(await exchange(relay, guarded, { scope: 'api2' }), 400, 'invalid_request');
    expect((await exchange(relay, unguarded, { scope: 'api2' })).status).toBe(200);
  });

  it('refuses a transaction token for any other client as invalid_request', async () => {
    expectTokenError(await exchange(GATEWAY, guarded, { requested_token_type: TXN_TOKEN_TYPE, scope: 'api1' }), 400, 'invalid_request');
    expect((await exchange(GATEWAY, unguarded, { requested_token_type: TXN_TOKEN_TYPE, scope: 'api1' })).status).toBe(200);
  });

  it('introspection keeps showing act for delegated tokens', async () => {
    const delegated = (await delegate(API1, guarded)).body.access_token;
    const response = await introspect(server.url, API1, { token: delegated });
    expect(response.body).toMatchObject({ active: true, sub: '1', client_id: 'api1', act: { client_id: 'api1' } });
  });
});
