import { DEMO_PUBLIC_KEYS } from '../../src/demo/demo-keys';
import { TrustedIssuerStore } from '../../src/identity/trusted-issuers/trusted-issuer.store';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { uniqueName } from '../support/fixtures';

/** docs/trusted-issuers.md: the registry in PostgreSQL, read through the repository. */
describe('trusted issuer registry', () => {
  let server: TestServer;
  let store: TrustedIssuerStore;

  beforeAll(async () => {
    server = await startTestServer({ CACHE_TTL_SECONDS: '0' });
    store = server.app.get(TrustedIssuerStore);
  });
  afterAll(() => server.close());

  it('refuses a row with both or neither key source, a workload issuer of kind jwt, and a SPIFFE issuer that is not a trust domain ID', async () => {
    const insert = (issuer: string, kind: string, jwks: unknown, jwksUri: string | null, role = 'workload') =>
      sql('INSERT INTO trusted_issuers (issuer, role, kind, jwks, jwks_uri) VALUES ($1, $2, $3, $4, $5)', [
        issuer,
        role,
        kind,
        jwks && JSON.stringify(jwks),
        jwksUri,
      ]);
    await expect(insert('https://both.example', 'kubernetes', { keys: [] }, 'https://both.example/jwks')).rejects.toThrow(/trusted_issuers_one_key_source/);
    await expect(insert('https://neither.example', 'kubernetes', null, null)).rejects.toThrow(/trusted_issuers_one_key_source/);
    await expect(insert('https://plain.example', 'jwt', { keys: [] }, null)).rejects.toThrow(/trusted_issuers_workload_kind/);
    await expect(insert('spiffe://demo.example/ns/a', 'spiffe', { keys: [] }, null)).rejects.toThrow(/trusted_issuers_spiffe_id/);
  });

  it('does not find an issuer under another role, or a disabled one', async () => {
    const issuer = `https://${uniqueName('k8s')}.example`;
    await sql(`INSERT INTO trusted_issuers (issuer, role, kind, jwks_uri, enabled) VALUES ($1, 'workload', 'kubernetes', 'https://k.example/jwks', false)`, [
      issuer,
    ]);
    await expect(store.find(issuer, 'workload')).resolves.toBeUndefined();
    await expect(store.find('https://kubernetes.demo.example', 'subject')).resolves.toBeUndefined();
    await expect(store.find('x'.repeat(501), 'workload')).resolves.toBeUndefined();
  });

  it('reads the demo workload issuers with their inline JWK Set', async () => {
    await expect(store.find('https://kubernetes.demo.example', 'workload')).resolves.toEqual({
      issuer: 'https://kubernetes.demo.example',
      role: 'workload',
      kind: 'kubernetes',
      keys: { type: 'inline', jwks: { keys: [DEMO_PUBLIC_KEYS['demo-workloads']] } },
      enabled: true,
    });
    await expect(store.find('spiffe://demo.example', 'workload')).resolves.toMatchObject({ kind: 'spiffe', keys: { type: 'inline' } });
  });

  it('reads an issuer registered with a jwks_uri', async () => {
    const issuer = `https://${uniqueName('idp')}.example`;
    await sql(`INSERT INTO trusted_issuers (issuer, role, kind, jwks_uri) VALUES ($1, 'subject', 'jwt', $2)`, [issuer, `${issuer}/jwks`]);
    await expect(store.find(issuer, 'subject')).resolves.toEqual({
      issuer,
      role: 'subject',
      kind: 'jwt',
      keys: { type: 'remote', uri: `${issuer}/jwks` },
      enabled: true,
    });
  });
});
