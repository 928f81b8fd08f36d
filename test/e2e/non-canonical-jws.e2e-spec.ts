import { clientAssertion, JWT_BEARER, serviceAccountToken, signJwt, demoPrivateJwk } from '../support/client-assertions';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError } from '../support/fixtures';
import { postForm, requestToken } from '../support/http';
import { ACCESS_TOKEN_TYPE, API1, TOKEN_EXCHANGE, introspect, passwordTokens, userinfo } from '../support/token-lifecycle';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const TRUST_DOMAIN = 'https://mesh.tollgate.test';
const TXN_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:txn_token';
const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
const GATEWAY = { clientId: 'gateway', secret: 'gateway-secret' };
const now = () => Math.floor(Date.now() / 1000);

/**
 * The same JWS with the lowest spare bit of its signature's last character set: a lenient base64url
 * decoder reads the very same signature bytes, so only the spelling differs.
 */
function respelled(jws: string): string {
  const signature = jws.slice(jws.lastIndexOf('.') + 1);
  if (signature.length % 4 < 2) throw new Error('this signature has no spare bits');
  const last = ALPHABET[ALPHABET.indexOf(signature[signature.length - 1]) ^ 1];
  const tampered = `${jws.slice(0, -1)}${last}`;
  const bytes = (token: string) => Buffer.from(token.slice(token.lastIndexOf('.') + 1), 'base64url');
  if (!bytes(tampered).equals(bytes(jws))) throw new Error('the respelled signature decodes to other bytes');
  return tampered;
}

/** RFC 7515 §2: every JWS part is base64url without padding, so a token has exactly one accepted spelling. */
describe('JWS parts in non-canonical base64url are refused', () => {
  let server: TestServer;
  let alice: string;

  beforeAll(async () => {
    server = await startTestServer({ TRUST_DOMAIN });
    alice = (await passwordTokens(server.url, 'openid profile api1')).access_token;
  });
  afterAll(() => server.close());

  describe('our access tokens', () => {
    it('accepts the token as issued at userinfo, introspection and delegation', async () => {
      expect((await userinfo(server.url, alice)).status).toBe(200);
      expect((await introspect(server.url, API1, { token: alice })).body.active).toBe(true);
      expect((await requestToken(server.url, API1.clientId, API1.secret, { grant_type: 'delegation', token: alice, scope: 'api2' })).status).toBe(200);
    });

    it('refuses the respelled token at userinfo with 401 invalid_token', async () => {
      const response = await userinfo(server.url, respelled(alice));
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(JSON.parse(response.body)).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    });

    it('reports the respelled token inactive at introspection', async () => {
      const response = await introspect(server.url, API1, { token: respelled(alice) });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ active: false });
    });

    it('refuses the respelled token for delegation and token exchange', async () => {
      const token = respelled(alice);
      expectTokenError(await requestToken(server.url, API1.clientId, API1.secret, { grant_type: 'delegation', token, scope: 'api2' }), 400, 'invalid_grant');
      const exchange = { grant_type: TOKEN_EXCHANGE, subject_token: token, subject_token_type: ACCESS_TOKEN_TYPE, scope: 'api2' };
      expectTokenError(await requestToken(server.url, API1.clientId, API1.secret, exchange), 400, 'invalid_request');
    });
  });

  describe('our transaction tokens', () => {
    const txnRequest = (form: Record<string, string>) =>
      requestToken(server.url, GATEWAY.clientId, GATEWAY.secret, {
        grant_type: TOKEN_EXCHANGE,
        requested_token_type: TXN_TOKEN_TYPE,
        audience: TRUST_DOMAIN,
        ...form,
      });

    it('replaces a transaction token as issued, and refuses it respelled', async () => {
      const minted = await txnRequest({ subject_token: alice, subject_token_type: ACCESS_TOKEN_TYPE });
      expect(minted.status).toBe(200);
      const original = minted.body.access_token as string;
      expectTokenError(await txnRequest({ subject_token: respelled(original), subject_token_type: TXN_TOKEN_TYPE }), 400, 'invalid_request');
      expect((await txnRequest({ subject_token: original, subject_token_type: TXN_TOKEN_TYPE })).status).toBe(200);
    });
  });

  describe('client assertions', () => {
    const withAssertion = (assertion: string, extra: Record<string, string> = {}) => ({
      grant_type: 'client_credentials',
      client_assertion_type: JWT_BEARER,
      client_assertion: assertion,
      ...extra,
    });

    it('refuses a respelled private_key_jwt assertion with 401 invalid_client, then accepts it as signed', async () => {
      const assertion = await clientAssertion('batch');
      expectTokenError(await postForm(`${server.url}/connect/token`, withAssertion(respelled(assertion), { scope: 'api1' })), 401, 'invalid_client');
      expect((await postForm(`${server.url}/connect/token`, withAssertion(assertion, { scope: 'api1' }))).status).toBe(200);
    });

    it('refuses a respelled workload assertion with 401 invalid_client, then accepts it as signed', async () => {
      const token = await serviceAccountToken('default:reports');
      const form = (assertion: string) => withAssertion(assertion, { scope: 'api2', client_id: 'reports' });
      expectTokenError(await postForm(`${server.url}/connect/token`, form(respelled(token))), 401, 'invalid_client');
      expect((await postForm(`${server.url}/connect/token`, form(token))).status).toBe(200);
    });
  });

  describe('subject tokens of a trusted issuer', () => {
    it('refuses a respelled subject token with invalid_request, then exchanges it as signed', async () => {
      const external = await signJwt(
        { iss: 'https://idp.demo.example', aud: ['api1'], sub: 'idp|42', email: 'alice@example.com', iat: now(), exp: now() + 300 },
        { key: demoPrivateJwk('demo-idp'), header: { typ: 'JWT' } },
      );
      const exchange = (token: string) =>
        requestToken(server.url, API1.clientId, API1.secret, {
          grant_type: TOKEN_EXCHANGE,
          subject_token: token,
          subject_token_type: JWT_TOKEN_TYPE,
          scope: 'api2',
        });
      expectTokenError(await exchange(respelled(external)), 400, 'invalid_request');
      expect((await exchange(external)).status).toBe(200);
    });
  });
});
