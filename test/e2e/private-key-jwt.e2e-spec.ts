import { createHmac, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import * as oidc from 'openid-client';
import { RecordingAuditSink } from '../../src/platform/audit/recording-audit.sink';
import { TollgateMetrics } from '../../src/platform/metrics/metrics';
import { clientAssertion, demoPrivateJwk, demoPublicJwk, JWT_BEARER, unsecuredJwt } from '../support/client-assertions';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { basic, postForm } from '../support/http';
import { startJwksServer, type JwksTestServer } from '../support/jwks-server';

const grant = { grant_type: 'client_credentials', scope: 'api1' };
const now = () => Math.floor(Date.now() / 1000);

/** private_key_jwt (RFC 7523 §2.2, OpenID Connect Core §9) at the token, introspection and revocation endpoints. */
describe('private_key_jwt client authentication', () => {
  const audit = new RecordingAuditSink();
  let server: TestServer;
  let second: TestServer;
  let tokenUrl: string;
  const withAssertion = (assertion: string, extra: Record<string, string> = {}) => ({
    ...grant,
    client_assertion_type: JWT_BEARER,
    client_assertion: assertion,
    ...extra,
  });

  beforeAll(async () => {
    server = await startTestServer({}, { auditSink: audit });
    second = await startTestServer();
    tokenUrl = `${server.url}/connect/token`;
  });
  afterAll(async () => {
    await server.close();
    await second.close();
  });

  describe('refusals', () => {
    it('refuses an assertion signed with another key', async () => {
      const assertion = await clientAssertion('batch', {}, { key: { ...demoPrivateJwk('demo-idp'), kid: 'batch-1' } });
      expectTokenError(await postForm(tokenUrl, withAssertion(assertion)), 401, 'invalid_client');
    });

    it('refuses an assertion for another audience', async () => {
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('batch', { aud: 'https://elsewhere.example' }))), 401, 'invalid_client');
    });

    it('refuses the token endpoint URL as aud, and the issuer among other audiences (draft-ietf-oauth-rfc7523bis)', async () => {
      for (const aud of [`${ISSUER}/connect/token`, [`${ISSUER}/connect/token`], [ISSUER, 'https://elsewhere.example'], [ISSUER, `${ISSUER}/connect/token`]]) {
        expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('batch', { aud }))), 401, 'invalid_client');
      }
      expect(audit.events).toContainEqual(
        expect.objectContaining({
          name: 'client.authentication_failed',
          clientId: 'batch',
          error: 'invalid client assertion: "aud" must be the issuer identifier alone',
        }),
      );
    });

    it('refuses the URL of the endpoint called as aud at introspection and revocation', async () => {
      for (const endpoint of ['introspect', 'revocation']) {
        const assertion = await clientAssertion('batch', { aud: `${ISSUER}/connect/${endpoint}` });
        const response = await postForm(`${server.url}/connect/${endpoint}`, { token: 'x', client_assertion_type: JWT_BEARER, client_assertion: assertion });
        expectTokenError(response, 401, 'invalid_client');
      }
    });

    it('refuses an expired assertion, and one expiring more than 5 minutes ahead', async () => {
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('batch', { iat: now() - 600, exp: now() - 120 }))), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('batch', { exp: now() + 600 }))), 401, 'invalid_client');
    });

    it('refuses an iat further in the future than the clock skew', async () => {
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('batch', { iat: now() + 180, exp: now() + 240 }))), 401, 'invalid_client');
    });

    it('refuses alg none', async () => {
      const assertion = unsecuredJwt({ iss: 'batch', sub: 'batch', aud: ISSUER, exp: now() + 60, jti: randomUUID() });
      expectTokenError(await postForm(tokenUrl, withAssertion(assertion)), 401, 'invalid_client');
    });

    it('refuses HS256 with the public key as the HMAC secret', async () => {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const input = `${part({ alg: 'HS256', kid: 'batch-1' })}.${part({ iss: 'batch', sub: 'batch', aud: ISSUER, exp: now() + 60, jti: randomUUID() })}`;
      for (const secret of [JSON.stringify(demoPublicJwk('batch')), demoPublicJwk('batch').x as string]) {
        const assertion = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
        expectTokenError(await postForm(tokenUrl, withAssertion(assertion)), 401, 'invalid_client');
      }
    });

    it('refuses iss or sub other than the client_id, a client_id that does not match, and a missing jti', async () => {
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('batch', { iss: 'm2m' }))), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('batch', { sub: 'm2m' }))), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('batch'), { client_id: 'm2m' })), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('batch', { jti: undefined }))), 401, 'invalid_client');
    });

    it('refuses a replayed jti, on the same instance and on a second one', async () => {
      const assertion = await clientAssertion('batch');
      expect((await postForm(tokenUrl, withAssertion(assertion))).status).toBe(200);
      expectTokenError(await postForm(tokenUrl, withAssertion(assertion)), 401, 'invalid_client');
      expectTokenError(await postForm(`${second.url}/connect/token`, withAssertion(assertion)), 401, 'invalid_client');
      const fresh = await clientAssertion('batch');
      expect((await postForm(`${second.url}/connect/token`, withAssertion(fresh))).status).toBe(200);
      expectTokenError(await postForm(tokenUrl, withAssertion(fresh)), 401, 'invalid_client');
    });

    it('refuses a replayed jti across instances that share Redis (REDIS_URL)', async () => {
      const [a, b] = [await startTestServer({ REDIS_URL: 'redis://127.0.0.1:6379' }), await startTestServer({ REDIS_URL: 'redis://127.0.0.1:6379' })];
      try {
        const jti = randomUUID();
        const assertion = await clientAssertion('batch', { jti });
        expect((await postForm(`${a.url}/connect/token`, withAssertion(assertion))).status).toBe(200);
        expectTokenError(await postForm(`${b.url}/connect/token`, withAssertion(assertion)), 401, 'invalid_client');
        // Remembered in Redis, and recorded in PostgreSQL, which outlives a Redis restart.
        expect(await sql('SELECT count(*)::int AS count FROM client_assertion_jtis WHERE jti = $1', [jti])).toEqual([{ count: 1 }]);
        expectTokenError(await postForm(`${a.url}/connect/token`, withAssertion(assertion)), 401, 'invalid_client');
        expect((await postForm(`${b.url}/connect/token`, withAssertion(await clientAssertion('batch')))).status).toBe(200);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('refuses a method the client is not registered for: an assertion for a secret client, a secret for batch', async () => {
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion('m2m'))), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, { ...grant, client_id: 'batch', client_secret: 'batch-secret' }), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, withAssertion(await clientAssertion(uniqueName('nobody')))), 401, 'invalid_client');
    });

    it('refuses an assertion together with a secret or Basic as two methods at once', async () => {
      expectTokenError(
        await postForm(tokenUrl, withAssertion(await clientAssertion('batch'), { client_id: 'batch', client_secret: 'x' })),
        400,
        'invalid_request',
      );
      expectTokenError(
        await postForm(tokenUrl, withAssertion(await clientAssertion('batch')), { authorization: basic('m2m', 'm2m-secret') }),
        400,
        'invalid_request',
      );
    });

    it('refuses client_assertion without its type and the reverse (400), and an unknown assertion type (401)', async () => {
      expectTokenError(await postForm(tokenUrl, { ...grant, client_assertion: await clientAssertion('batch') }), 400, 'invalid_request');
      expectTokenError(await postForm(tokenUrl, { ...grant, client_assertion_type: JWT_BEARER }), 400, 'invalid_request');
      const saml = {
        ...grant,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
        client_assertion: await clientAssertion('batch'),
      };
      expectTokenError(await postForm(tokenUrl, saml), 401, 'invalid_client');
    });

    it('audits a failure with the method and the client, never the assertion', async () => {
      const assertion = await clientAssertion('batch', { aud: 'https://elsewhere.example' });
      await postForm(tokenUrl, withAssertion(assertion));
      expect(audit.events).toContainEqual(
        expect.objectContaining({
          name: 'client.authentication_failed',
          clientId: 'batch',
          method: 'private_key_jwt',
          error: 'invalid client assertion: claim aud is not acceptable',
        }),
      );
      expect(JSON.stringify(audit.events)).not.toContain(assertion.split('.')[2]);
    });
  });

  describe('the demo client batch with its inline JWK Set', () => {
    it('gets a token with aud = the issuer, as a string or a one-element array', async () => {
      const response = await postForm(tokenUrl, withAssertion(await clientAssertion('batch')));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'api1' });
      const asArray = await postForm(tokenUrl, withAssertion(await clientAssertion('batch', { aud: [ISSUER] }), { client_id: 'batch' }));
      expect(asArray.status).toBe(200);
    });

    it('introspects and revokes its own token, with aud = the issuer there too', async () => {
      const token = (await postForm(tokenUrl, withAssertion(await clientAssertion('batch')))).body.access_token as string;
      const form = async () => ({ token, client_assertion_type: JWT_BEARER, client_assertion: await clientAssertion('batch') });
      const introspected = await postForm(`${server.url}/connect/introspect`, await form());
      expect(introspected.status).toBe(200);
      expect(introspected.body).toMatchObject({ active: true, client_id: 'batch', scope: 'api1' });
      expect((await postForm(`${server.url}/connect/revocation`, await form())).status).toBe(200);
      expect((await postForm(`${server.url}/connect/introspect`, await form())).body).toEqual({ active: false });
    });

    it('refuses at introspection what it refuses at the token endpoint', async () => {
      const response = await postForm(`${server.url}/connect/introspect`, {
        token: 'x',
        client_assertion_type: JWT_BEARER,
        client_assertion: await clientAssertion('batch', { exp: now() - 120 }),
      });
      expectTokenError(response, 401, 'invalid_client');
    });

    it('counts authentications by method in the metrics', async () => {
      const text = await server.app.get(TollgateMetrics).registry.metrics();
      expect(text).toMatch(/tollgate_client_authentications_total\{method="private_key_jwt",outcome="success"\} [1-9]/);
      expect(text).toMatch(/tollgate_client_authentications_total\{method="private_key_jwt",outcome="failure"\} [1-9]/);
    });
  });

  describe('a client registered with a jwks_uri', () => {
    let keys: JwksTestServer;
    let clientId: string;
    const keyPair = async (kid: string) => {
      const { publicKey, privateKey } = await generateKeyPair('PS256', { extractable: true });
      return {
        publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'PS256' } as JWK,
        privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'PS256' } as JWK,
      };
    };

    let uriServer: TestServer;
    let uriTokenUrl: string;

    beforeAll(async () => {
      // Unknown kids refetch at most every 2 s here instead of every minute, so the test can wait it out.
      uriServer = await startTestServer({ JWKS_REFETCH_SECONDS: '2' });
      uriTokenUrl = `${uriServer.url}/connect/token`;
      keys = await startJwksServer();
      clientId = uniqueName('uri-client');
      await insertClient({ clientId, secrets: [], grantTypes: ['client_credentials'], scopes: ['api1'] });
      await sql('UPDATE clients SET jwks_uri = $2 WHERE client_id = $1', [clientId, keys.url]);
    });
    afterAll(async () => {
      await keys.close();
      await uriServer.close();
    });

    it('fetches the set once, refetches once for a new kid, and not again within the interval however many unknown kids come', async () => {
      const first = await keyPair('k1');
      keys.serve({ keys: [first.publicJwk] });
      expect((await postForm(uriTokenUrl, withAssertion(await clientAssertion(clientId, {}, { key: first.privateJwk })))).status).toBe(200);
      expect((await postForm(uriTokenUrl, withAssertion(await clientAssertion(clientId, {}, { key: first.privateJwk })))).status).toBe(200);
      expect(keys.hits()).toBe(1);

      const rotated = await keyPair('k2');
      keys.serve({ keys: [first.publicJwk, rotated.publicJwk] });
      const tooSoon = await postForm(uriTokenUrl, withAssertion(await clientAssertion(clientId, {}, { key: rotated.privateJwk })));
      expectTokenError(tooSoon, 401, 'invalid_client');
      expect(keys.hits()).toBe(1);

      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await postForm(uriTokenUrl, withAssertion(await clientAssertion(clientId, {}, { key: rotated.privateJwk })))).status).toBe(200);
      expect(keys.hits()).toBe(2);

      const unknown = await Promise.all(
        Array.from({ length: 25 }, (_, i) => clientAssertion(clientId, {}, { key: { ...rotated.privateJwk, kid: `unknown-${i}` } })),
      );
      const responses = await Promise.all(unknown.map((assertion) => postForm(uriTokenUrl, withAssertion(assertion))));
      expect(responses.map((response) => response.status)).toEqual(unknown.map(() => 401));
      expect(keys.hits()).toBe(2);

      await new Promise((resolve) => setTimeout(resolve, 2100));
      const later = await Promise.all(
        unknown
          .slice(0, 10)
          .map(async () => postForm(uriTokenUrl, withAssertion(await clientAssertion(clientId, {}, { key: { ...rotated.privateJwk, kid: 'unknown-x' } })))),
      );
      expect(later.map((response) => response.status)).toEqual(later.map(() => 401));
      expect(keys.hits()).toBe(3);
    });
  });

  describe('openid-client with PrivateKeyJwt', () => {
    it('gets a client_credentials token, unmodified', async () => {
      const routeToTestServer: oidc.CustomFetch = (url, options) => fetch(url.replace(ISSUER, server.url), options as RequestInit);
      const privateKey = { key: await (await import('jose')).importJWK(demoPrivateJwk('batch'), 'ES256'), kid: 'batch-1' } as oidc.PrivateKey;
      const config = await oidc.discovery(new URL(ISSUER), 'batch', undefined, oidc.PrivateKeyJwt(privateKey), {
        [oidc.customFetch]: routeToTestServer,
        execute: [oidc.allowInsecureRequests],
      });
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api2' });
      expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'api2', access_token: expect.any(String) });
      const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
      expect(introspected).toMatchObject({ active: true, client_id: 'batch' });
    });
  });
});
