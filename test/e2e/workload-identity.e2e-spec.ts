import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { RecordingAuditSink } from '../../src/platform/audit/recording-audit.sink';
import { clientAssertion, demoPrivateJwk, JWT_BEARER, JWT_SPIFFE, jwtSvid, serviceAccountToken, unsecuredJwt } from '../support/client-assertions';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, uniqueName } from '../support/fixtures';
import { postForm } from '../support/http';
import { startJwksServer, type JwksTestServer } from '../support/jwks-server';

const grant = { grant_type: 'client_credentials', scope: 'api2' };
const now = () => Math.floor(Date.now() / 1000);
const LEDGER = 'spiffe://demo.example/ns/default/sa/ledger';

/** Workload identity (docs/workload-identity.md): Kubernetes service-account tokens and SPIFFE JWT-SVIDs as client assertions. */
describe('workload identity client authentication', () => {
  const audit = new RecordingAuditSink();
  let server: TestServer;
  let tokenUrl: string;
  const kubernetes = (token: string, clientId: string | null = 'reports') => ({
    ...grant,
    client_assertion_type: JWT_BEARER,
    client_assertion: token,
    ...(clientId === null ? {} : { client_id: clientId }),
  });
  const spiffe = (svid: string, clientId?: string) => ({
    ...grant,
    client_assertion_type: JWT_SPIFFE,
    client_assertion: svid,
    ...(clientId ? { client_id: clientId } : {}),
  });

  beforeAll(async () => {
    server = await startTestServer({}, { auditSink: audit });
    tokenUrl = `${server.url}/connect/token`;
  });
  afterAll(() => server.close());

  describe('Kubernetes service-account tokens', () => {
    it('refuses a token of another service account', async () => {
      expectTokenError(await postForm(tokenUrl, kubernetes(await serviceAccountToken('default:billing'))), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, kubernetes(await serviceAccountToken('other:reports'))), 401, 'invalid_client');
    });

    it('refuses a token signed with another key, for another audience, expired, or with alg none', async () => {
      const forged = await serviceAccountToken('default:reports', {}, { key: { ...demoPrivateJwk('demo-idp'), kid: 'demo-workloads-1' } });
      expectTokenError(await postForm(tokenUrl, kubernetes(forged)), 401, 'invalid_client');
      expectTokenError(
        await postForm(tokenUrl, kubernetes(await serviceAccountToken('default:reports', { aud: ['https://kubernetes.default.svc'] }))),
        401,
        'invalid_client',
      );
      expectTokenError(
        await postForm(tokenUrl, kubernetes(await serviceAccountToken('default:reports', { iat: now() - 7200, exp: now() - 120 }))),
        401,
        'invalid_client',
      );
      const unsigned = unsecuredJwt({ iss: 'https://kubernetes.demo.example', sub: 'system:serviceaccount:default:reports', aud: [ISSUER], exp: now() + 600 });
      expectTokenError(await postForm(tokenUrl, kubernetes(unsigned)), 401, 'invalid_client');
    });

    it('refuses a token of an issuer that is not trusted, and one without client_id', async () => {
      const foreign = await serviceAccountToken('default:reports', { iss: 'https://kubernetes.evil.example' });
      expectTokenError(await postForm(tokenUrl, kubernetes(foreign)), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, kubernetes(await serviceAccountToken('default:reports'), null)), 401, 'invalid_client');
    });

    it('refuses the service account of reports for another client, and a secret client using a workload token', async () => {
      expectTokenError(await postForm(tokenUrl, kubernetes(await serviceAccountToken('default:reports'), 'm2m')), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, kubernetes(await serviceAccountToken('default:reports'), 'ledger')), 401, 'invalid_client');
    });

    it('authenticates reports with its projected token, reused (no jti, no 5-minute cap), with aud = issuer or token endpoint', async () => {
      const token = await serviceAccountToken('default:reports');
      for (let i = 0; i < 2; i += 1) {
        const response = await postForm(tokenUrl, kubernetes(token));
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ token_type: 'Bearer', scope: 'api2' });
      }
      const byEndpoint = await serviceAccountToken('default:reports', { aud: ['https://kubernetes.default.svc', `${ISSUER}/connect/token`] });
      expect((await postForm(tokenUrl, kubernetes(byEndpoint))).status).toBe(200);
    });

    it('introspects with the same token', async () => {
      const token = await serviceAccountToken('default:reports');
      const issued = (await postForm(tokenUrl, kubernetes(token))).body.access_token as string;
      const response = await postForm(`${server.url}/connect/introspect`, {
        token: issued,
        client_id: 'reports',
        client_assertion_type: JWT_BEARER,
        client_assertion: token,
      });
      expect(response.body).toMatchObject({ active: true, client_id: 'reports' });
    });
  });

  describe('SPIFFE JWT-SVIDs', () => {
    it('refuses a SPIFFE ID outside the trust domain, and an SVID of another workload', async () => {
      expectTokenError(await postForm(tokenUrl, spiffe(await jwtSvid('spiffe://other.example/ns/default/sa/ledger'))), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, spiffe(await jwtSvid('spiffe://demo.example/ns/default/sa/billing'))), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, spiffe(await jwtSvid('spiffe://demo.example/ns/default/sa/billing'), 'ledger')), 401, 'invalid_client');
    });

    it('refuses an SVID signed with another key, for another audience, expired, or with a malformed SPIFFE ID', async () => {
      const forged = await jwtSvid(LEDGER, {}, { key: { ...demoPrivateJwk('batch'), kid: 'demo-workloads-1' } });
      expectTokenError(await postForm(tokenUrl, spiffe(forged)), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, spiffe(await jwtSvid(LEDGER, { aud: ['spiffe://demo.example/other'] }))), 401, 'invalid_client');
      expectTokenError(await postForm(tokenUrl, spiffe(await jwtSvid(LEDGER, { exp: now() - 120 }))), 401, 'invalid_client');
      for (const id of ['spiffe://demo.example', 'spiffe://Demo.example/x', 'https://demo.example/ns/default/sa/ledger']) {
        expectTokenError(await postForm(tokenUrl, spiffe(await jwtSvid(id))), 401, 'invalid_client');
      }
    });

    it('refuses the SVID of ledger for another client', async () => {
      expectTokenError(await postForm(tokenUrl, spiffe(await jwtSvid(LEDGER), 'reports')), 401, 'invalid_client');
    });

    it('authenticates ledger by its SVID alone, with client_id, and whatever iss the SVID names', async () => {
      const svid = await jwtSvid(LEDGER);
      const alone = await postForm(tokenUrl, spiffe(svid));
      expect(alone.status).toBe(200);
      expect((await postForm(`${server.url}/connect/introspect`, { token: alone.body.access_token, ...spiffe(svid) })).body).toMatchObject({
        active: true,
        client_id: 'ledger',
      });
      expect((await postForm(tokenUrl, spiffe(svid, 'ledger'))).status).toBe(200);
      // Trust bundles are keyed by the trust domain of sub, never by iss.
      expect((await postForm(tokenUrl, spiffe(await jwtSvid(LEDGER, { iss: 'https://oidc-discovery.elsewhere.example' })))).status).toBe(200);
    });

    it('audits the method of a failure without the SVID', async () => {
      const svid = await jwtSvid('spiffe://other.example/ns/default/sa/ledger');
      await postForm(tokenUrl, spiffe(svid));
      expect(audit.events).toContainEqual(
        expect.objectContaining({ name: 'client.authentication_failed', method: 'spiffe_jwt_svid', error: 'the SPIFFE ID is not in a trusted trust domain' }),
      );
      expect(JSON.stringify(audit.events)).not.toContain(svid.split('.')[2]);
    });
  });

  describe('a trust domain whose bundle comes from its SPIFFE bundle endpoint', () => {
    let bundle: JwksTestServer;
    let privateJwk: JWK;
    const trustDomain = `spiffe://${uniqueName('td')}.example`;
    const workload = `${trustDomain}/ns/jobs/sa/nightly`;
    let clientId: string;

    beforeAll(async () => {
      bundle = await startJwksServer();
      const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
      privateJwk = { ...(await exportJWK(privateKey)), kid: 'svid-1', alg: 'EdDSA' };
      bundle.serve({
        spiffe_sequence: 1,
        spiffe_refresh_hint: 300,
        keys: [
          { ...(await exportJWK(publicKey)), kid: 'svid-1', use: 'jwt-svid' },
          { kty: 'EC', crv: 'P-256', use: 'x509-svid', x5c: ['MIIB'], x: 'AA', y: 'AA' },
        ],
      });
      clientId = uniqueName('nightly');
      await sql(`INSERT INTO trusted_issuers (issuer, role, kind, jwks_uri) VALUES ($1, 'workload', 'spiffe', $2)`, [trustDomain, bundle.url]);
      await insertClient({ clientId, secrets: [], grantTypes: ['client_credentials'], scopes: ['api2'] });
      await sql('INSERT INTO client_workload_identities (issuer, subject, client_id) VALUES ($1, $2, $3)', [trustDomain, workload, clientId]);
    });
    afterAll(() => bundle.close());

    it("verifies an SVID with the bundle endpoint's jwt-svid key", async () => {
      const response = await postForm(tokenUrl, spiffe(await jwtSvid(workload, {}, { key: privateJwk })));
      expect(response.status).toBe(200);
      expect(bundle.hits()).toBe(1);
    });
  });

  describe('private_key_jwt is unaffected', () => {
    it('still authenticates batch', async () => {
      const response = await postForm(tokenUrl, { ...grant, client_assertion_type: JWT_BEARER, client_assertion: await clientAssertion('batch') });
      expect(response.status).toBe(200);
    });
  });
});
