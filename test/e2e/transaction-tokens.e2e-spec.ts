import { createRemoteJWKSet, jwtVerify } from 'jose';
import { RecordingAuditSink } from '../../src/platform/audit/recording-audit.sink';
import { TollgateMetrics } from '../../src/platform/metrics/metrics';
import { createTransactionTokenVerifier, TransactionTokenError } from '../../src/tokens/txn-tokens';
import { TransactionTokenIssuer } from '../../src/tokens/txn-tokens/txn-token.issuer';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, expectTokenSuccessHeaders, insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload, requestToken, type HttpResponse } from '../support/http';
import { ACCESS_TOKEN_TYPE, API1, M2M, TOKEN_EXCHANGE, introspect, passwordTokens, userinfo, type ClientCredentials } from '../support/token-lifecycle';

const TXN_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:txn_token';
const TRUST_DOMAIN = 'https://mesh.tollgate.test';
const GATEWAY: ClientCredentials = { clientId: 'gateway', secret: 'gateway-secret' };

function txnRequest(url: string, client: ClientCredentials, form: Record<string, string | string[]>): Promise<HttpResponse> {
  return requestToken(url, client.clientId, client.secret, { grant_type: TOKEN_EXCHANGE, requested_token_type: TXN_TOKEN_TYPE, ...form });
}

const ofAccessToken = (token: string) => ({ subject_token: token, subject_token_type: ACCESS_TOKEN_TYPE });
const ofTxnToken = (token: string) => ({ subject_token: token, subject_token_type: TXN_TOKEN_TYPE });

/** docs/transaction-tokens.md (draft-ietf-oauth-transaction-tokens) on the real service and PostgreSQL. */
describe('transaction tokens — token exchange with requested_token_type txn_token', () => {
  let server: TestServer;
  let jwks: ReturnType<typeof createRemoteJWKSet>;
  const audit = new RecordingAuditSink();
  // A service inside the trust domain that replaces the gateway's transaction tokens.
  const orders = { clientId: uniqueName('orders'), secret: 'orders-secret' };
  let alice: string;

  beforeAll(async () => {
    server = await startTestServer({ TRUST_DOMAIN }, { auditSink: audit });
    await insertClient({ ...orders, secrets: [{ secret: orders.secret }], grantTypes: [TOKEN_EXCHANGE], scopes: ['openid', 'api1', 'api2'] });
    await sql('UPDATE clients SET transaction_tokens = true WHERE client_id = $1', [orders.clientId]);
    jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
    alice = (await passwordTokens(server.url, 'openid profile email role api1')).access_token;
  });
  afterAll(() => server.close());

  async function mint(form: Record<string, string> = {}): Promise<string> {
    const response = await txnRequest(server.url, GATEWAY, { ...ofAccessToken(alice), audience: TRUST_DOMAIN, ...form });
    if (response.status !== 200) throw new Error(`transaction token refused: ${JSON.stringify(response.body)}`);
    return response.body.access_token;
  }

  describe('issuance', () => {
    it('issues a txntoken+jwt for the subject, the trust domain and the context: RFC 8693 §2.2.1 response with token_type N_A, no refresh token', async () => {
      const details = { action: 'checkout', cart: { items: 3 } };
      const context = { channel: 'web', req_ip: '203.0.113.9' };
      const response = await txnRequest(server.url, GATEWAY, {
        ...ofAccessToken(alice),
        audience: TRUST_DOMAIN,
        scope: 'openid api1',
        request_details: JSON.stringify(details),
        request_context: JSON.stringify(context),
      });
      expect(response.status).toBe(200);
      expectTokenSuccessHeaders(response);
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'N_A',
        expires_in: 60,
        scope: 'openid api1',
        issued_token_type: TXN_TOKEN_TYPE,
      });

      const { payload, protectedHeader } = await jwtVerify(response.body.access_token, jwks, { issuer: ISSUER, audience: TRUST_DOMAIN, typ: 'txntoken+jwt' });
      expect(protectedHeader).toEqual({ alg: 'RS256', typ: 'txntoken+jwt', kid: expect.any(String) });
      // req_ip is the client's address as the service saw it, whatever the request context said.
      expect(payload).toEqual({
        iss: ISSUER,
        iat: expect.any(Number),
        exp: expect.any(Number),
        aud: TRUST_DOMAIN,
        txn: expect.stringMatching(/^[\w-]{22}$/),
        sub: '1',
        scope: 'openid api1',
        req_wl: 'gateway',
        tctx: details,
        rctx: { channel: 'web', req_ip: '127.0.0.1' },
        // Carried by every replacement: none outlives the access token, or survives its revocation.
        subject_token: { exp: jwtPayload(alice).exp, jti: jwtPayload(alice).jti },
      });
      expect(payload.exp! - payload.iat!).toBe(60);
      expect(payload.exp).toBeLessThanOrEqual(jwtPayload(alice).exp);
    });

    it('draws a new txn for every transaction, and defaults the audience to the trust domain, the scope to what both allow, the contexts to empty', async () => {
      const [first, second] = await Promise.all([txnRequest(server.url, GATEWAY, ofAccessToken(alice)), txnRequest(server.url, GATEWAY, ofAccessToken(alice))]);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(first.body.scope).toBe('openid api1');
      const [a, b] = [jwtPayload(first.body.access_token), jwtPayload(second.body.access_token)];
      expect(a.txn).not.toBe(b.txn);
      expect(a).toMatchObject({ aud: TRUST_DOMAIN, tctx: {}, rctx: { req_ip: '127.0.0.1' } });
    });

    it('accepts request_context and request_details of exactly 4 KiB', async () => {
      const exactly4k = JSON.stringify({ pad: 'x'.repeat(4096 - 10) });
      expect(Buffer.byteLength(exactly4k)).toBe(4096);
      const response = await txnRequest(server.url, GATEWAY, { ...ofAccessToken(alice), request_context: exactly4k, request_details: exactly4k });
      expect(response.status).toBe(200);
    });

    it('never outlives its subject token', async () => {
      const shortLived = await server.app.get(TransactionTokenIssuer).issue({
        subject: '1',
        scopes: ['api1'],
        requestingWorkloads: ['gateway'],
        transactionContext: {},
        requestContext: {},
        subjectToken: { expiresAt: Math.floor(Date.now() / 1000) + 5 },
      });
      expect(shortLived.expiresIn).toBeLessThanOrEqual(5);
    });

    it('records the transaction in the audit log and counts the exchange by requested token type and outcome', async () => {
      const metrics = server.app.get(TollgateMetrics);
      const count = async (outcome: string) =>
        (await metrics.tokenExchanges.get()).values.find((value) => value.labels.requested_token_type === 'txn_token' && value.labels.outcome === outcome)
          ?.value ?? 0;
      const [successes, refusals] = [await count('success'), await count('invalid_target')];
      const token = await mint();
      expect((await txnRequest(server.url, GATEWAY, { ...ofAccessToken(alice), audience: 'api1' })).status).toBe(400);
      expect(await count('success')).toBe(successes + 1);
      expect(await count('invalid_target')).toBe(refusals + 1);
      expect(audit.events).toContainEqual({
        name: 'token.issued',
        grantType: TOKEN_EXCHANGE,
        clientId: 'gateway',
        subject: '1',
        scopes: ['openid', 'api1'],
        tokenType: TXN_TOKEN_TYPE,
        transactionId: jwtPayload(token).txn,
        subjectIssuer: undefined,
      });
      expect(JSON.stringify(audit.events)).not.toContain(token);
    });
  });

  describe('refusals', () => {
    it('refuses a scope wider than the subject token’s as invalid_scope', async () => {
      expectTokenError(await txnRequest(server.url, GATEWAY, { ...ofAccessToken(alice), scope: 'openid api2' }), 400, 'invalid_scope');
    });

    it.each([
      ['another audience', { audience: 'api1' }],
      ['the trust domain and another audience', { audience: [TRUST_DOMAIN, 'api2'] }],
      ['a resource outside the trust domain', { resource: 'https://elsewhere.example' }],
    ])('refuses %s as invalid_target', async (_, target) => {
      expectTokenError(await txnRequest(server.url, GATEWAY, { ...ofAccessToken(alice), ...target }), 400, 'invalid_target');
    });

    it.each([
      ['over 4 KiB', JSON.stringify({ pad: 'x'.repeat(4096) })],
      ['an array', '[1,2]'],
      ['a string', '"checkout"'],
      ['null', 'null'],
      ['not JSON', '{action: checkout}'],
      ['an object naming a member twice', '{"a":1,"a":2}'],
      ['empty', ''],
    ])('refuses request_context and request_details that are %s as invalid_request', async (_, value) => {
      expectTokenError(await txnRequest(server.url, GATEWAY, { ...ofAccessToken(alice), request_context: value }), 400, 'invalid_request');
      expectTokenError(await txnRequest(server.url, GATEWAY, { ...ofAccessToken(alice), request_details: value }), 400, 'invalid_request');
    });

    it('refuses a client not allowed transaction tokens as invalid_request', async () => {
      const aliceForApi1 = (await passwordTokens(server.url, 'openid api1')).access_token;
      expectTokenError(await txnRequest(server.url, API1, ofAccessToken(aliceForApi1)), 400, 'invalid_request');
    });

    it('refuses a subject token that is not a valid access token, or represents only a client, as invalid_request', async () => {
      const m2m = (await requestToken(server.url, M2M.clientId, M2M.secret, { grant_type: 'client_credentials', scope: 'api1' })).body.access_token;
      expectTokenError(await txnRequest(server.url, GATEWAY, ofAccessToken(`${alice.slice(0, -4)}AAAA`)), 400, 'invalid_request');
      expectTokenError(await txnRequest(server.url, GATEWAY, ofAccessToken(m2m)), 400, 'invalid_request');
    });

    it('refuses an access token presented as a transaction token for replacement as invalid_request', async () => {
      expectTokenError(await txnRequest(server.url, orders, ofTxnToken(alice)), 400, 'invalid_request');
    });

    it('refuses an expired transaction token for replacement as invalid_request', async () => {
      const expired = await server.app.get(TransactionTokenIssuer).issue({
        subject: '1',
        scopes: ['api1'],
        requestingWorkloads: ['gateway'],
        transactionContext: {},
        requestContext: {},
        subjectToken: { expiresAt: Math.floor(Date.now() / 1000) - 120 },
      });
      expectTokenError(await txnRequest(server.url, orders, ofTxnToken(expired.token)), 400, 'invalid_request');
    });

    it('refuses a transaction token of another trust domain for replacement as invalid_request', async () => {
      // Same database and keys, another trust domain: its tokens are not for this one.
      const other = await startTestServer({ TRUST_DOMAIN: 'https://other.tollgate.test' });
      try {
        const foreign = (await txnRequest(other.url, GATEWAY, ofAccessToken(alice))).body.access_token;
        expect(jwtPayload(foreign).aud).toBe('https://other.tollgate.test');
        expectTokenError(await txnRequest(server.url, orders, ofTxnToken(foreign)), 400, 'invalid_request');
      } finally {
        await other.close();
      }
    });
  });

  describe('replacement', () => {
    it('keeps txn, sub, aud and the contexts, extends req_wl, narrows the scope and has a fresh exp', async () => {
      const original = await mint({ scope: 'openid api1', request_details: '{"action":"checkout"}', request_context: '{"channel":"web"}' });
      const response = await txnRequest(server.url, orders, { ...ofTxnToken(original), scope: 'api1', request_details: '{"action":"refund"}' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'N_A', expires_in: 60, scope: 'api1', issued_token_type: TXN_TOKEN_TYPE });
      const { payload } = await jwtVerify(response.body.access_token, jwks, { issuer: ISSUER, audience: TRUST_DOMAIN, typ: 'txntoken+jwt' });
      const before = jwtPayload(original);
      expect(payload).toEqual({
        ...before,
        iat: expect.any(Number),
        exp: expect.any(Number),
        scope: 'api1',
        req_wl: `gateway,${orders.clientId}`,
      });
      expect(payload.txn).toBe(before.txn);
      expect(payload.tctx).toEqual({ action: 'checkout' });
      expect(payload.exp).toBeGreaterThanOrEqual(before.exp);
    });

    it('replaces a replacement, extending req_wl again', async () => {
      const first = (await txnRequest(server.url, orders, ofTxnToken(await mint()))).body.access_token;
      const second = await txnRequest(server.url, GATEWAY, ofTxnToken(first));
      expect(second.status).toBe(200);
      expect(jwtPayload(second.body.access_token)).toMatchObject({ txn: jwtPayload(first).txn, req_wl: `gateway,${orders.clientId},gateway` });
    });

    it('refuses a scope wider than the replaced token’s as invalid_scope', async () => {
      const narrow = await mint({ scope: 'api1' });
      expectTokenError(await txnRequest(server.url, orders, { ...ofTxnToken(narrow), scope: 'openid api1' }), 400, 'invalid_scope');
    });
  });

  describe('a transaction token is not an access token', () => {
    let txnToken: string;
    beforeAll(async () => {
      txnToken = await mint({ scope: 'openid api1' });
    });

    it('userinfo answers 401 invalid_token', async () => {
      const response = await userinfo(server.url, txnToken);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    });

    it('the delegation grant refuses it as invalid_grant', async () => {
      expectTokenError(
        await requestToken(server.url, API1.clientId, API1.secret, { grant_type: 'delegation', token: txnToken, scope: 'api2' }),
        400,
        'invalid_grant',
      );
    });

    it('an ordinary token exchange refuses it as invalid_request, whichever subject_token_type is named', async () => {
      const exchange = (form: Record<string, string>) =>
        requestToken(server.url, API1.clientId, API1.secret, { grant_type: TOKEN_EXCHANGE, scope: 'api2', ...form });
      expectTokenError(await exchange(ofAccessToken(txnToken)), 400, 'invalid_request');
      expectTokenError(await exchange(ofTxnToken(txnToken)), 400, 'invalid_request');
      expectTokenError(await exchange({ ...ofTxnToken(txnToken), requested_token_type: ACCESS_TOKEN_TYPE }), 400, 'invalid_request');
    });

    it('introspection answers exactly {"active": false}, to the gateway and to anyone else', async () => {
      for (const client of [GATEWAY, API1]) {
        const response = await introspect(server.url, client, { token: txnToken });
        expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { active: false } });
      }
    });
  });

  describe('APIs verify them with the published JWK Set', () => {
    it('two services verify the gateway’s token, one replaces it, and the next verifies the replacement', async () => {
      const verify = createTransactionTokenVerifier({
        issuer: ISSUER,
        trustDomain: TRUST_DOMAIN,
        jwksUri: `${server.url}/.well-known/openid-configuration/jwks`,
      });
      const fromGateway = await mint({ scope: 'openid api1' });
      const [seenByOrders, seenByBilling] = await Promise.all([verify(fromGateway), verify(fromGateway)]);
      expect(seenByOrders).toEqual(seenByBilling);
      const replaced = (await txnRequest(server.url, orders, ofTxnToken(fromGateway))).body.access_token;
      const seenDownstream = await verify(replaced);
      expect(seenDownstream).toMatchObject({ txn: seenByOrders.txn, sub: '1', req_wl: `gateway,${orders.clientId}` });
    });

    it('the verifier refuses an access token, and a token of another trust domain', async () => {
      const verify = createTransactionTokenVerifier({
        issuer: ISSUER,
        trustDomain: 'https://elsewhere.example',
        jwksUri: `${server.url}/.well-known/openid-configuration/jwks`,
      });
      await expect(verify(alice)).rejects.toBeInstanceOf(TransactionTokenError);
      await expect(verify(await mint())).rejects.toBeInstanceOf(TransactionTokenError);
    });
  });
});
