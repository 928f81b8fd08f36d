import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { ath, dpopKey } from '../support/dpop';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { basic, jwtPayload, postForm, request, type HttpResponse } from '../support/http';
import { ACCESS_TOKEN_TYPE, API1, FRONTEND, M2M, TOKEN_EXCHANGE, introspect, openIdClient, type ClientCredentials } from '../support/token-lifecycle';

const TOKEN_URL = `${ISSUER}/connect/token`;
const USERINFO_URL = `${ISSUER}/connect/userinfo`;

function tokenRequest(url: string, client: ClientCredentials, form: Record<string, string>, proof?: string): Promise<HttpResponse> {
  return postForm(`${url}/connect/token`, form, { authorization: basic(client.clientId, client.secret), ...(proof === undefined ? {} : { dpop: proof }) });
}

function userinfo(url: string, authorization: string, proof?: string): Promise<HttpResponse> {
  return request(`${url}/connect/userinfo`, { headers: { authorization, ...(proof === undefined ? {} : { dpop: proof }) } });
}

const password = { grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid profile api1' };

/** RFC 9449 (docs/dpop.md): DPoP-bound tokens at the token endpoint, userinfo, introspection, and through token exchange. */
describe('DPoP (RFC 9449)', () => {
  let server: TestServer;
  let second: TestServer;
  const demanding = { clientId: uniqueName('dpop-only'), secret: 'dpop-only-secret' };

  beforeAll(async () => {
    await insertClient({ ...demanding, secrets: [{ secret: demanding.secret }], grantTypes: ['client_credentials'], scopes: ['api1'] });
    await sql('UPDATE clients SET require_dpop = true WHERE client_id = $1', [demanding.clientId]);
    [server, second] = await Promise.all([startTestServer(), startTestServer()]);
  });
  afterAll(() => Promise.all([server.close(), second.close()]));

  describe('the token endpoint', () => {
    it('binds a client_credentials token to the proof key with openid-client: token_type DPoP, cnf.jkt', async () => {
      const key = await dpopKey();
      const config = await openIdClient(server, M2M);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api1' }, { DPoP: oidc.getDPoPHandle(config, key.pair) });
      expect(tokens.token_type).toBe('dpop');
      expect(jwtPayload(tokens.access_token)).toMatchObject({ client_id: 'm2m', cnf: { jkt: key.jkt } });
    });

    it('binds a client_credentials token with oauth4webapi, and a password-grant token with openid-client; no proof, no binding', async () => {
      const key = await dpopKey();
      const as = { issuer: ISSUER, token_endpoint: TOKEN_URL };
      const client: oauth.Client = { client_id: M2M.clientId };
      const options = { DPoP: oauth.DPoP(client, key.pair), [oauth.customFetch]: toServer(server), [oauth.allowInsecureRequests]: true };
      const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(M2M.secret), { scope: 'api1' }, options);
      const tokens = await oauth.processClientCredentialsResponse(as, client, response);
      expect(tokens.token_type).toBe('dpop');
      expect(jwtPayload(tokens.access_token).cnf).toEqual({ jkt: key.jkt });
      const config = await openIdClient(server, FRONTEND);
      const user = await oidc.genericGrantRequest(config, 'password', password, { DPoP: oidc.getDPoPHandle(config, key.pair) });
      expect(user.token_type).toBe('dpop');
      expect(jwtPayload(user.access_token)).toMatchObject({ sub: '1', cnf: { jkt: key.jkt } });
      const bearer = await tokenRequest(server.url, FRONTEND, password);
      expect(bearer.body.token_type).toBe('Bearer');
      expect(jwtPayload(bearer.body.access_token).cnf).toBeUndefined();
    });

    // RFC 9864: openid-client 6.9 names an Ed25519 key's algorithm Ed25519, older clients EdDSA.
    it.each(['EdDSA', 'Ed25519'] as const)('binds to an Ed25519 key whose proofs say alg %s, and discovery lists both names', async (alg) => {
      const key = await dpopKey(alg);
      const response = await tokenRequest(server.url, FRONTEND, password, await key.proof('POST', TOKEN_URL));
      expect({ status: response.status, token_type: response.body.token_type }).toEqual({ status: 200, token_type: 'DPoP' });
      expect(jwtPayload(response.body.access_token).cnf).toEqual({ jkt: key.jkt });
      const bound = response.body.access_token;
      const read = await userinfo(server.url, `DPoP ${bound}`, await key.proof('GET', USERINFO_URL, { ath: ath(bound) }));
      expect({ status: read.status, sub: read.body.sub }).toEqual({ status: 200, sub: '1' });
      const discovery = await request(`${server.url}/.well-known/openid-configuration`);
      expect(discovery.body.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['EdDSA', 'Ed25519']));
    });

    it.each<[string, (key: Awaited<ReturnType<typeof dpopKey>>) => Promise<string> | string]>([
      ['an empty header', () => ''],
      ['garbage', () => 'not.a.proof'],
      ['a proof over 8 KiB', async (key) => `${await key.proof('POST', TOKEN_URL)}${'A'.repeat(9000)}`],
      ['typ JWT', (key) => key.proof('POST', TOKEN_URL, {}, { typ: 'JWT' })],
      ['htm GET', (key) => key.proof('GET', TOKEN_URL)],
      ['the htu of another endpoint', (key) => key.proof('POST', USERINFO_URL)],
      ['an iat two minutes old', (key) => key.proof('POST', TOKEN_URL, { iat: Math.floor(Date.now() / 1000) - 120 })],
      ['a jwk that is no key', (key) => key.proof('POST', TOKEN_URL, {}, { jwk: { kty: 'EC', crv: 'P-256', x: 'AA', y: 'BB' } })],
      ['a symmetric jwk', (key) => key.proof('POST', TOKEN_URL, {}, { jwk: { kty: 'oct', k: 'c2VjcmV0' } })],
    ])('refuses %s as invalid_dpop_proof (400), never a 500', async (_, make) => {
      const response = await tokenRequest(server.url, M2M, { grant_type: 'client_credentials' }, await make(await dpopKey()));
      expectTokenError(response, 400, 'invalid_dpop_proof');
    });

    it('refuses a proof used before, also on another instance sharing the database', async () => {
      const key = await dpopKey();
      const proof = await key.proof('POST', TOKEN_URL);
      expect((await tokenRequest(server.url, M2M, { grant_type: 'client_credentials' }, proof)).status).toBe(200);
      expectTokenError(await tokenRequest(second.url, M2M, { grant_type: 'client_credentials' }, proof), 400, 'invalid_dpop_proof');
      expectTokenError(await tokenRequest(server.url, M2M, { grant_type: 'client_credentials' }, proof), 400, 'invalid_dpop_proof');
    });

    it('accepts a proof sent many times at once on two instances exactly once, while fresh proofs sent with it all pass', async () => {
      const key = await dpopKey();
      const proof = await key.proof('POST', TOKEN_URL);
      const fresh = await Promise.all(Array.from({ length: 8 }, () => key.proof('POST', TOKEN_URL)));
      const [replayed, others] = await Promise.all([
        Promise.all(Array.from({ length: 12 }, (_, i) => tokenRequest(i % 2 ? second.url : server.url, M2M, { grant_type: 'client_credentials' }, proof))),
        Promise.all(fresh.map((each, i) => tokenRequest(i % 2 ? second.url : server.url, M2M, { grant_type: 'client_credentials' }, each))),
      ]);
      expect(replayed.map((response) => response.status).sort()).toEqual([200, ...Array<number>(11).fill(400)]);
      for (const response of replayed.filter((each) => each.status === 400)) expectTokenError(response, 400, 'invalid_dpop_proof');
      expect(others.map((response) => response.status)).toEqual(Array<number>(8).fill(200));
    });

    it('refuses a token request without a proof from a client registered as requiring DPoP', async () => {
      expectTokenError(await tokenRequest(server.url, demanding, { grant_type: 'client_credentials' }), 400, 'invalid_dpop_proof');
      const key = await dpopKey();
      const response = await tokenRequest(server.url, demanding, { grant_type: 'client_credentials' }, await key.proof('POST', TOKEN_URL));
      expect(response.status).toBe(200);
      expect(response.body.token_type).toBe('DPoP');
    });
  });

  describe('userinfo and introspection', () => {
    let key: Awaited<ReturnType<typeof dpopKey>>;
    let bound: string;
    beforeAll(async () => {
      key = await dpopKey();
      bound = (await tokenRequest(server.url, FRONTEND, password, await key.proof('POST', TOKEN_URL))).body.access_token;
    });

    it('answers Authorization: DPoP with a matching proof, and openid-client reads it with its DPoP handle', async () => {
      const response = await userinfo(server.url, `DPoP ${bound}`, await key.proof('GET', USERINFO_URL, { ath: ath(bound) }));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ sub: '1', name: 'Alice Smith' });
      const config = await openIdClient(server, FRONTEND);
      const handle = oidc.getDPoPHandle(config, key.pair);
      const tokens = await oidc.genericGrantRequest(config, 'password', password, { DPoP: handle });
      expect(await oidc.fetchUserInfo(config, tokens.access_token, '1', { DPoP: handle })).toMatchObject({ sub: '1' });
    });

    it('refuses a bound token sent as Bearer: invalid_token with a DPoP challenge naming the algorithms', async () => {
      const response = await userinfo(server.url, `Bearer ${bound}`);
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_token');
      expect(response.headers.get('www-authenticate')).toMatch(
        /^DPoP realm="http:\/\/tollgate\.test", error="invalid_token", .*algs="ES256 [^"]*EdDSA Ed25519"$/,
      );
    });

    it.each<[string, () => Promise<string | undefined>]>([
      ['no proof', async () => undefined],
      ['a proof for another token (ath)', () => key.proof('GET', USERINFO_URL, { ath: ath('another') })],
      ['a proof for POST', () => key.proof('POST', USERINFO_URL, { ath: ath(bound) })],
      ['a proof of another key', async () => (await dpopKey()).proof('GET', USERINFO_URL, { ath: ath(bound) })],
    ])('refuses %s: 401 invalid_dpop_proof with a DPoP challenge', async (_, make) => {
      const response = await userinfo(server.url, `DPoP ${bound}`, await make());
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_dpop_proof');
      expect(response.headers.get('www-authenticate')).toMatch(/^DPoP realm="http:\/\/tollgate\.test", error="invalid_dpop_proof"/);
    });

    it('shows cnf and token_type DPoP at introspection', async () => {
      const response = await introspect(server.url, API1, { token: bound });
      expect(response.body).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: key.jkt } });
    });
  });

  describe('bound in, bound out: API 1 exchanges a bound user token with its own key', () => {
    let userToken: string;
    beforeAll(async () => {
      const user = await dpopKey();
      userToken = (await tokenRequest(server.url, FRONTEND, password, await user.proof('POST', TOKEN_URL))).body.access_token;
    });

    it.each([
      ['token exchange', () => ({ grant_type: TOKEN_EXCHANGE, subject_token: userToken, subject_token_type: ACCESS_TOKEN_TYPE, scope: 'api2' })],
      ['delegation', () => ({ grant_type: 'delegation', token: userToken, scope: 'api2' })],
    ])('refuses %s without a proof as invalid_dpop_proof', async (_, form) => {
      expectTokenError(await tokenRequest(server.url, API1, form()), 400, 'invalid_dpop_proof');
    });

    it("binds the exchanged token to API 1's key, and an API 2 checking the proof accepts it from API 1 only", async () => {
      const api1Key = await dpopKey();
      const config = await openIdClient(server, API1);
      const handle = oidc.getDPoPHandle(config, api1Key.pair);
      const form = { subject_token: userToken, subject_token_type: ACCESS_TOKEN_TYPE, scope: 'api2' };
      const exchanged = await oidc.genericGrantRequest(config, TOKEN_EXCHANGE, form, { DPoP: handle });
      expect(exchanged.token_type).toBe('dpop');
      expect(jwtPayload(exchanged.access_token)).toMatchObject({ sub: '1', act: { client_id: 'api1' }, cnf: { jkt: api1Key.jkt } });

      const api2 = await resourceServer(server);
      try {
        const call = async (proof: string) =>
          (await fetch(`${api2.url}/orders`, { headers: { authorization: `DPoP ${exchanged.access_token}`, dpop: proof } })).status;
        expect(await call(await api1Key.proof('GET', `${api2.url}/orders`, { ath: ath(exchanged.access_token) }))).toBe(200);
        const stolen = await dpopKey();
        expect(await call(await stolen.proof('GET', `${api2.url}/orders`, { ath: ath(exchanged.access_token) }))).toBe(401);
        expect(api2.seen).toEqual([{ sub: '1', act: { client_id: 'api1' } }]);
      } finally {
        await api2.close();
      }
    });
  });

  describe('server nonces (DPOP_REQUIRE_NONCE=true)', () => {
    let nonces: TestServer;
    beforeAll(async () => (nonces = await startTestServer({ DPOP_REQUIRE_NONCE: 'true' })));
    afterAll(() => nonces.close());

    it('answers a proof without a nonce with use_dpop_nonce and a DPoP-Nonce header, then accepts the nonce', async () => {
      const key = await dpopKey();
      const first = await tokenRequest(nonces.url, M2M, { grant_type: 'client_credentials' }, await key.proof('POST', TOKEN_URL));
      expectTokenError(first, 400, 'use_dpop_nonce');
      const nonce = first.headers.get('dpop-nonce');
      expect(nonce).toMatch(/^[0-9a-z]+\.[\w-]{43}$/);
      const wrong = await tokenRequest(nonces.url, M2M, { grant_type: 'client_credentials' }, await key.proof('POST', TOKEN_URL, { nonce: 'x' }));
      expectTokenError(wrong, 400, 'use_dpop_nonce');
      const retried = await tokenRequest(nonces.url, M2M, { grant_type: 'client_credentials' }, await key.proof('POST', TOKEN_URL, { nonce: nonce! }));
      expect(retried.status).toBe(200);
    });

    it('lets openid-client retry with the nonce by itself', async () => {
      const config = await openIdClient(nonces, M2M);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api1' }, { DPoP: oidc.getDPoPHandle(config, (await dpopKey()).pair) });
      expect(tokens.token_type).toBe('dpop');
    });
  });
});

function toServer(server: TestServer): typeof fetch {
  return ((url: string, init?: RequestInit) => fetch(String(url).replace(ISSUER, server.url), init)) as typeof fetch;
}

/** A downstream API that validates DPoP-bound access tokens with oauth4webapi (RFC 9068 + RFC 9449 §7). */
async function resourceServer(server: TestServer): Promise<{ url: string; seen: object[]; close: () => Promise<void> }> {
  const as = { issuer: ISSUER, jwks_uri: `${ISSUER}/.well-known/openid-configuration/jwks` };
  const seen: object[] = [];
  const http: Server = createServer((req, res) => {
    const url = `http://${req.headers.host}${req.url}`;
    const headers = new Headers(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
    oauth
      .validateJwtAccessToken(as, new Request(url, { method: req.method, headers }), 'api2', {
        requireDPoP: true,
        [oauth.customFetch]: toServer(server),
        [oauth.allowInsecureRequests]: true,
      })
      .then(
        (claims) => (seen.push({ sub: claims.sub, act: claims.act }), res.writeHead(200).end('{}')),
        () => res.writeHead(401).end(),
      );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => http.close(() => resolve())) };
}
