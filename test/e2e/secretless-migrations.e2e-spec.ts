import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { runClientMigrationCommand, type CommandIo } from '../../src/client-migration/client-migration.command';
import { runIssuerMigrationCommand } from '../../src/issuer-migration/issuer-migration.command';
import { clientAssertion, demoPrivateJwk, demoPublicJwk, JWT_BEARER, JWT_SPIFFE, jwtSvid, serviceAccountToken } from '../support/client-assertions';
import { sql, startTestServer, testDatabaseUrl, type TestServer } from '../support/create-test-app';
import { expectTokenError, uniqueName } from '../support/fixtures';
import { postForm } from '../support/http';
import { SCRATCH_ROOT, typeCheck } from '../support/type-check';

type Command = (argv: readonly string[], io: CommandIo) => Promise<number>;

/**
 * `npm run issuer:migration` and the secretless forms of `npm run client:migration`: the generated
 * migrations apply and let the client authenticate with no secret anywhere; the last test
 * type-checks every file written, as `npm run build` would once they are in migrations/.
 */
describe('migrations for secretless clients and trusted issuers', () => {
  let server: TestServer;
  let outDir: string;
  let dataSource: DataSource;
  let runner: QueryRunner;

  beforeAll(async () => {
    [server, dataSource, outDir] = await Promise.all([
      startTestServer({ CACHE_TTL_SECONDS: '0' }),
      new DataSource({ type: 'postgres', url: testDatabaseUrl(), poolSize: 1 }).initialize(),
      mkdir(SCRATCH_ROOT, { recursive: true }).then(() => mkdtemp(join(SCRATCH_ROOT, 'secretless-migration-'))),
    ]);
    runner = dataSource.createQueryRunner();
  });
  afterAll(async () => {
    await runner?.release();
    await dataSource?.destroy();
    await server?.close();
    await rm(outDir, { recursive: true, force: true });
  });

  async function generate(command: Command, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string; migration?: MigrationInterface }> {
    let stdout = '';
    let stderr = '';
    const before = new Set(await readdir(outDir));
    const code = await command([...argv, '--out-dir', outDir, '--no-index'], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd: outDir });
    const written = (await readdir(outDir)).filter((name) => !before.has(name) && name.endsWith('.ts'));
    if (written.length === 0) return { code, stdout, stderr };
    const [MigrationClass] = Object.values((await import(join(outDir, written[0]))) as Record<string, new () => MigrationInterface>);
    return { code, stdout, stderr, migration: new MigrationClass() };
  }
  const token = (form: Record<string, string>) => postForm(`${server.url}/connect/token`, { grant_type: 'client_credentials', scope: 'api2', ...form });

  it('refuses bad issuer and secretless arguments with exit code 2', async () => {
    const badIssuer = await generate(runIssuerMigrationCommand, '--spiffe', 'spiffe://Demo.example/x', '--jwks-uri', 'http://keys.example.com/bundle');
    expect(badIssuer.code).toBe(2);
    expect(badIssuer.stderr).toContain('--spiffe "spiffe://Demo.example/x" must be a trust domain ID');
    expect(badIssuer.stderr).toContain('--jwks-uri: the jwks_uri must be https (http only for a loopback address)');
    await writeFile(join(outDir, 'private.json'), JSON.stringify({ keys: [demoPrivateJwk('batch')] }));
    const privateKeys = await generate(runClientMigrationCommand, '--client-id', 'x', '--grant', 'client_credentials', '--scope', 'api2', '--jwks-file', 'private.json');
    expect(privateKeys.code).toBe(2);
    expect(privateKeys.stderr).toContain('--jwks-file: the file holds private or symmetric key material');
    const noIssuer = await generate(runClientMigrationCommand, '--client-id', 'x', '--grant', 'client_credentials', '--scope', 'api2', '--workload', 'system:serviceaccount:a:b');
    expect(noIssuer.stderr).toContain('--workload-issuer <https URL> is required with a Kubernetes service account');
    const both = await generate(runClientMigrationCommand, '--client-id', 'x', '--grant', 'client_credentials', '--scope', 'api2', '--jwks-uri', 'https://k.example/jwks', '--workload', 'spiffe://a.example/b');
    expect(both.stderr).toContain('--jwks-file, --jwks-uri and --workload cannot be combined');
    expect((await readdir(outDir)).filter((name) => name.endsWith('.ts'))).toEqual([]);
  });

  it('registers a Kubernetes issuer, then a client bound to one of its service accounts, with no secret printed', async () => {
    const issuer = `https://${uniqueName('cluster')}.example`;
    await writeFile(join(outDir, 'cluster.json'), JSON.stringify({ keys: [demoPublicJwk('demo-workloads')] }));
    const clientId = uniqueName('k8s-api');
    const early = await generate(runClientMigrationCommand, '--client-id', clientId, '--grant', 'client_credentials', '--scope', 'api2', '--workload', 'system:serviceaccount:apps:api', '--workload-issuer', issuer);
    await expect(early.migration!.up(runner)).rejects.toThrow(`Workload issuer "${issuer}" is not registered: add it first with npm run issuer:migration`);
    await sql('DELETE FROM clients WHERE client_id = $1', [clientId]);

    const trusted = await generate(runIssuerMigrationCommand, '--kubernetes', issuer, '--jwks-file', 'cluster.json', '--description', 'test cluster');
    expect(trusted.code).toBe(0);
    await trusted.migration!.up(runner);
    const client = await generate(runClientMigrationCommand, '--client-id', clientId, '--grant', 'client_credentials', '--scope', 'api2', '--workload', 'system:serviceaccount:apps:api', '--workload-issuer', issuer);
    expect({ code: client.code, stdout: client.stdout }).toEqual({ code: 0, stdout: '' });
    await client.migration!.up(runner);

    const sa = await serviceAccountToken('apps:api', { iss: issuer });
    expect((await token({ client_id: clientId, client_assertion_type: JWT_BEARER, client_assertion: sa })).status).toBe(200);
    expect(await sql('SELECT count(*)::int AS count FROM client_secrets WHERE client_id = $1', [clientId])).toEqual([{ count: 0 }]);

    const disabled = await generate(runIssuerMigrationCommand, '--disable', issuer);
    await disabled.migration!.up(runner);
    expectTokenError(await token({ client_id: clientId, client_assertion_type: JWT_BEARER, client_assertion: sa }), 401, 'invalid_client');
    await disabled.migration!.down(runner);
    await client.migration!.down(runner);
    await trusted.migration!.down(runner);
    expect(await sql('SELECT count(*)::int AS count FROM trusted_issuers WHERE issuer = $1', [issuer])).toEqual([{ count: 0 }]);
  });

  it('binds a client to a SPIFFE ID of the demo trust domain', async () => {
    const clientId = uniqueName('svid-api');
    const spiffeId = `spiffe://demo.example/ns/apps/sa/${clientId}`;
    const client = await generate(runClientMigrationCommand, '--client-id', clientId, '--grant', 'client_credentials', '--scope', 'api2', '--workload', spiffeId);
    await client.migration!.up(runner);
    const response = await token({ client_assertion_type: JWT_SPIFFE, client_assertion: await jwtSvid(spiffeId) });
    expect(response.status).toBe(200);
    await client.migration!.down(runner);
  });

  it('registers a private_key_jwt client from a JWK Set file, and one with a jwks_uri', async () => {
    await writeFile(join(outDir, 'batch.json'), JSON.stringify(demoPublicJwk('batch')));
    const clientId = uniqueName('keyed');
    const client = await generate(runClientMigrationCommand, '--client-id', clientId, '--grant', 'client_credentials', '--scope', 'api2', '--jwks-file', 'batch.json');
    expect({ code: client.code, stdout: client.stdout }).toEqual({ code: 0, stdout: '' });
    await client.migration!.up(runner);
    expect((await token({ client_assertion_type: JWT_BEARER, client_assertion: await clientAssertion(clientId) })).status).toBe(200);
    await client.migration!.down(runner);

    const remote = uniqueName('remote');
    const byUri = await generate(runClientMigrationCommand, '--client-id', remote, '--grant', 'client_credentials', '--scope', 'api2', '--jwks-uri', 'https://keys.example.com/jwks.json');
    await byUri.migration!.up(runner);
    expect(await sql('SELECT jwks, jwks_uri FROM clients WHERE client_id = $1', [remote])).toEqual([{ jwks: null, jwks_uri: 'https://keys.example.com/jwks.json' }]);
    await byUri.migration!.down(runner);
  });

  it("type-checks every migration written above with the project's compiler options", async () => {
    const files = (await readdir(outDir)).filter((name) => name.endsWith('.ts'));
    const kinds = files.map((name) => /^\d{13}-(AddClient|AddTrustedIssuer|DisableTrustedIssuer)/.exec(name)?.[1]);
    expect(new Set(kinds)).toEqual(new Set(['AddClient', 'AddTrustedIssuer', 'DisableTrustedIssuer']));
    expect(typeCheck(files.map((name) => join(outDir, name)))).toEqual([]);
  });
});
