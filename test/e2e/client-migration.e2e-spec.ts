import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { runClientMigrationCommand } from '../../cli/client-migration/client-migration.command';
import { sql, startTestServer, testDatabaseUrl, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, secretHash, uniqueName } from '../support/fixtures';
import { jwtPayload, postForm, requestToken } from '../support/http';
import { SCRATCH_ROOT, typeCheck } from '../support/type-check';

/**
 * `npm run client:migration` writes a migration that compiles and, once applied, does what it says:
 * a client authenticates with the secret it printed, rotation ends and removes old secrets. The
 * generator writes into a scratch directory of the repository here (--out-dir), never into
 * migrations/; the last test type-checks every file written, as `npm run typecheck` would.
 */
describe('npm run client:migration', () => {
  let server: TestServer;
  let outDir: string;
  let dataSource: DataSource;
  let runner: QueryRunner;

  beforeAll(async () => {
    // No client cache: a migration's effect is seen by the next request.
    [server, dataSource, outDir] = await Promise.all([
      startTestServer({ CACHE_TTL_SECONDS: '0' }),
      new DataSource({ type: 'postgres', url: testDatabaseUrl(), poolSize: 1 }).initialize(),
      mkdir(SCRATCH_ROOT, { recursive: true }).then(() => mkdtemp(join(SCRATCH_ROOT, 'client-migration-'))),
    ]);
    runner = dataSource.createQueryRunner();
  });
  afterAll(async () => {
    await runner?.release();
    await dataSource?.destroy();
    await server?.close();
    await rm(outDir, { recursive: true, force: true });
  });

  interface Generated {
    readonly code: number;
    readonly stdout: string;
    readonly stderr: string;
    readonly file?: string;
    readonly migration?: MigrationInterface;
    readonly migrationClass?: new () => MigrationInterface;
  }

  /** Runs the command as `npm run client:migration -- <argv>` would, then loads the file it wrote. */
  async function generate(...argv: string[]): Promise<Generated> {
    let stdout = '';
    let stderr = '';
    const before = new Set(await readdir(outDir));
    const code = await runClientMigrationCommand([...argv, '--out-dir', outDir, '--no-index'], {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      cwd: process.cwd(),
    });
    const written = (await readdir(outDir)).filter((name) => !before.has(name) && name.endsWith('.ts'));
    if (written.length === 0) return { code, stdout, stderr };
    expect(written).toHaveLength(1);
    const file = join(outDir, written[0]);
    const exported: Record<string, new () => MigrationInterface> = await import(file);
    const [MigrationClass] = Object.values(exported);
    return { code, stdout, stderr, file, migration: new MigrationClass(), migrationClass: MigrationClass };
  }

  /** Applies migrations the way Tollgate does: through TypeORM's migration table, one transaction each. */
  async function applyAsTollgateDoes(...classes: (new () => MigrationInterface)[]): Promise<string[]> {
    const migrator = await new DataSource({ type: 'postgres', url: testDatabaseUrl(), migrations: classes, poolSize: 1 }).initialize();
    try {
      return (await migrator.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
    } finally {
      await migrator.destroy();
    }
  }

  const secretIdOf = (generated: Generated) => /The new secret's id is ([0-9a-f-]{36}) /.exec(generated.stderr)?.[1];

  const clientCredentials = (clientId: string, secret: string) =>
    requestToken(server.url, clientId, secret, { grant_type: 'client_credentials', scope: 'api2' });

  it('refuses bad arguments with exit code 2 and a clear message, writing nothing', async () => {
    const result = await generate('--client-id', 'api 3', '--grant', 'implicit');
    expect(result).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^client:migration: --client-id "api 3" must be/) });
    expect(result.stderr).toContain('--grant: grant type "implicit" is registered by RFC 7591 for a flow without a token request');
    expect(result.stderr).toContain('--scope is required when creating a client');
    expect(await readdir(outDir)).toEqual([]);
  });

  it('creates a client whose printed secret authenticates once the migration is applied; down removes it', async () => {
    const clientId = uniqueName('api3');
    const created = await generate('--client-id', clientId, '--grant', 'client_credentials', '--grant', 'delegation', '--scope', 'api2');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^[\w-]{43}\n$/);
    const secret = created.stdout.trim();
    expect(created.stderr).toContain(`The new secret of client "${clientId}" follows on stdout.`);
    expect(created.stderr).not.toContain(secret);
    const source = await readFile(created.file!, 'utf8');
    expect(source).not.toContain(secret);
    expect(source).toContain(secretHash(secret));

    expectTokenError(await clientCredentials(clientId, secret), 401, 'invalid_client', { basicChallenge: true });
    // Applied the way Tollgate applies migrations: through TypeORM's migration table, which also
    // checks the class name ends with its timestamp.
    const migrator = await new DataSource({ type: 'postgres', url: testDatabaseUrl(), migrations: [created.migrationClass!], poolSize: 1 }).initialize();
    try {
      expect((await migrator.runMigrations({ transaction: 'each' })).map((migration) => migration.name)).toEqual([created.migrationClass!.name]);
    } finally {
      await migrator.destroy();
    }
    const issued = await clientCredentials(clientId, secret);
    expect({ status: issued.status, scope: issued.body.scope }).toEqual({ status: 200, scope: 'api2' });
    expect(await sql('SELECT allowed_grant_types, allowed_scopes, enabled FROM clients WHERE client_id = $1', [clientId])).toEqual([
      { allowed_grant_types: ['client_credentials', 'delegation'], allowed_scopes: ['api2'], enabled: true },
    ]);
    await expect(created.migration!.up(runner)).rejects.toThrow(
      `Client "${clientId}" already exists: change it with npm run client:migration -- --client-id ${clientId} --change <the settings to change>, or add a secret with --add-secret`,
    );

    await created.migration!.down(runner);
    expectTokenError(await clientCredentials(clientId, secret), 401, 'invalid_client', { basicChallenge: true });
    expect(await sql('SELECT count(*)::int AS count FROM client_secrets WHERE client_id = $1', [clientId])).toEqual([{ count: 0 }]);
    await sql('DELETE FROM migrations WHERE name = $1', [created.migrationClass!.name]);
  });

  it('rotates a secret with --add-secret (both work until the old one is removed) and disables a client with --disable', async () => {
    const clientId = uniqueName('rotating');
    const created = await generate('--client-id', clientId, '--grant', 'client_credentials', '--scope', 'api2', '--expires', '2099-01-01');
    await created.migration!.up(runner);
    const first = created.stdout.trim();

    const added = await generate('--client-id', clientId, '--add-secret', '--expires', '2100-01-01T00:00:00Z', '--description', 'rotation 2026-11');
    const second = added.stdout.trim();
    expect(second).not.toBe(first);
    await added.migration!.up(runner);
    expect((await clientCredentials(clientId, first)).status).toBe(200);
    expect((await clientCredentials(clientId, second)).status).toBe(200);
    expect(await sql('SELECT description, expires_at FROM client_secrets WHERE client_id = $1 ORDER BY expires_at', [clientId])).toEqual([
      { description: expect.stringMatching(/^client:migration \d{4}-\d{2}-\d{2}$/), expires_at: new Date('2099-01-01T00:00:00Z') },
      { description: 'rotation 2026-11', expires_at: new Date('2100-01-01T00:00:00Z') },
    ]);

    const disabled = await generate('--client-id', clientId, '--disable');
    expect({ code: disabled.code, stdout: disabled.stdout }).toEqual({ code: 0, stdout: '' });
    await disabled.migration!.up(runner);
    expectTokenError(await clientCredentials(clientId, second), 401, 'invalid_client', { basicChallenge: true });
    await disabled.migration!.down(runner);
    expect((await clientCredentials(clientId, second)).status).toBe(200);

    // A client that was already disabled stays disabled when the migration is reverted.
    await sql('UPDATE clients SET enabled = false WHERE client_id = $1', [clientId]);
    const again = await generate('--client-id', clientId, '--disable');
    await again.migration!.up(runner);
    await again.migration!.down(runner);
    expect(await sql('SELECT enabled FROM clients WHERE client_id = $1', [clientId])).toEqual([{ enabled: false }]);
    expect(await sql('SELECT count(*)::int AS n FROM client_settings_before_migration WHERE client_id = $1', [clientId])).toEqual([{ n: 0 }]);
    await sql('UPDATE clients SET enabled = true WHERE client_id = $1', [clientId]);

    await added.migration!.down(runner);
    expectTokenError(await clientCredentials(clientId, second), 401, 'invalid_client', { basicChallenge: true });
    expect((await clientCredentials(clientId, first)).status).toBe(200);
    await created.migration!.down(runner);
  });

  it('creates a client allowed transaction tokens, and sets may_act on an existing client with --may-act; down restores each previous setting', async () => {
    const gatewayId = uniqueName('gw');
    const created = await generate(
      '--client-id',
      gatewayId,
      '--grant',
      'urn:ietf:params:oauth:grant-type:token-exchange',
      '--scope',
      'openid api1',
      '--transaction-tokens',
    );
    expect(created.code).toBe(0);
    await created.migration!.up(runner);
    expect(await sql('SELECT transaction_tokens, may_act_client_id FROM clients WHERE client_id = $1', [gatewayId])).toEqual([
      { transaction_tokens: true, may_act_client_id: null },
    ]);

    const frontId = uniqueName('front');
    await insertClient({ clientId: frontId, secrets: [{ secret: 'front-secret' }], grantTypes: ['password'], scopes: ['openid', 'api1'] });
    const policy = await generate('--client-id', frontId, '--may-act', 'api1');
    expect({ code: policy.code, stdout: policy.stdout }).toEqual({ code: 0, stdout: '' });
    expect(policy.file).toMatch(/SetDelegationPolicy/);
    await policy.migration!.up(runner);
    const token = await requestToken(server.url, frontId, 'front-secret', {
      grant_type: 'password',
      username: 'alice',
      password: 'alice',
      scope: 'openid api1',
    });
    expect(jwtPayload(token.body.access_token).may_act).toEqual({ client_id: 'api1' });
    const changed = await generate('--client-id', frontId, '--may-act', 'api3');
    await changed.migration!.up(runner);
    await changed.migration!.down(runner);
    expect(await sql('SELECT may_act_client_id FROM clients WHERE client_id = $1', [frontId])).toEqual([{ may_act_client_id: 'api1' }]);
    await policy.migration!.down(runner);
    expect(await sql('SELECT may_act_client_id FROM clients WHERE client_id = $1', [frontId])).toEqual([{ may_act_client_id: null }]);

    const missing = await generate('--client-id', uniqueName('nobody'), '--transaction-tokens');
    await expect(missing.migration!.up(runner)).rejects.toThrow('does not exist');
    await created.migration!.down(runner);
  });

  it('registers a public browser client (no secret printed or stored) and a confidential one that requires consent and PAR', async () => {
    const spa = uniqueName('spa');
    const publicClient = await generate(
      '--client-id',
      spa,
      '--public',
      '--grant',
      'authorization_code',
      '--grant',
      'refresh_token',
      '--scope',
      'openid profile',
      '--redirect-uri',
      'https://app.example/cb',
      '--redirect-uri',
      'http://127.0.0.1:8080/cb',
      '--post-logout-redirect-uri',
      'https://app.example/',
    );
    expect(publicClient.code).toBe(0);
    expect(publicClient.stdout).toBe('');
    expect(publicClient.stderr).not.toContain('secret of client');
    const partner = uniqueName('partner');
    const confidential = await generate(
      '--client-id',
      partner,
      '--grant',
      'authorization_code',
      '--scope',
      'openid',
      '--redirect-uri',
      'https://partner.example/cb',
      '--consent',
      '--require-par',
    );
    expect(confidential.stdout).toMatch(/^[\w-]{43}\n$/);
    expect(await applyAsTollgateDoes(publicClient.migrationClass!, confidential.migrationClass!)).toHaveLength(2);

    expect(
      await sql(
        'SELECT client_id, public_client, redirect_uris, post_logout_redirect_uris, require_consent, require_pushed_authorization_requests FROM clients WHERE client_id = ANY($1) ORDER BY public_client',
        [[spa, partner]],
      ),
    ).toEqual([
      {
        client_id: partner,
        public_client: false,
        redirect_uris: ['https://partner.example/cb'],
        post_logout_redirect_uris: [],
        require_consent: true,
        require_pushed_authorization_requests: true,
      },
      {
        client_id: spa,
        public_client: true,
        redirect_uris: ['https://app.example/cb', 'http://127.0.0.1:8080/cb'],
        post_logout_redirect_uris: ['https://app.example/'],
        require_consent: false,
        require_pushed_authorization_requests: false,
      },
    ]);
    expect(await sql('SELECT count(*)::int AS count FROM client_secrets WHERE client_id = $1', [spa])).toEqual([{ count: 0 }]);
    // The public client names itself at the token endpoint: an unknown code, not an unknown client.
    const redeemed = await postForm(`${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: spa,
      code: 'x'.repeat(43),
      code_verifier: 'v'.repeat(43),
    });
    expect(redeemed.body).toEqual({ error: 'invalid_grant', error_description: 'the authorization code is invalid' });
    const login = await fetch(
      `${server.url}/connect/authorize?${new URLSearchParams({ client_id: spa, redirect_uri: 'http://127.0.0.1:8080/cb', response_type: 'code', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', scope: 'openid' })}`,
    );
    expect(login.status).toBe(200);
    for (const generated of [publicClient, confidential]) {
      await generated.migration!.down(runner);
      await sql('DELETE FROM migrations WHERE name = $1', [generated.migrationClass!.name]);
    }
  });

  it('refuses to add a secret to, or disable, a client that does not exist', async () => {
    const clientId = uniqueName('missing');
    const added = await generate('--client-id', clientId, '--add-secret');
    await expect(added.migration!.up(runner)).rejects.toThrow(`Client "${clientId}" does not exist`);
    const disabled = await generate('--client-id', clientId, '--disable');
    await expect(disabled.migration!.up(runner)).rejects.toThrow(`Client "${clientId}" does not exist`);
  });

  it('appends the migration to index.ts in the output directory unless --no-index', async () => {
    const indexDir = await mkdtemp(join(tmpdir(), 'tollgate-client-migration-index-'));
    try {
      const original = await readFile(join(process.cwd(), 'migrations/index.ts'), 'utf8');
      await writeFile(join(indexDir, 'index.ts'), original);
      const code = await runClientMigrationCommand(['--client-id', 'indexed', '--disable', '--out-dir', indexDir], {
        stdout: () => undefined,
        stderr: () => undefined,
        cwd: process.cwd(),
        now: () => new Date(1_795_000_000_000),
      });
      expect(code).toBe(0);
      expect(await readdir(indexDir)).toEqual(['1795000000000-DisableClientIndexed.ts', 'index.ts']);
      const index = await readFile(join(indexDir, 'index.ts'), 'utf8');
      expect(index).toContain("import { DisableClientIndexed1795000000000 } from './1795000000000-DisableClientIndexed';");
      expect(index).toMatch(/export const migrations = \[[^\]]*, DisableClientIndexed1795000000000\];/);
    } finally {
      await rm(indexDir, { recursive: true, force: true });
    }
  });

  it('rotates: --add-secret, then --expire-secrets-before ends the older secrets, --remove-secret removes one', async () => {
    const clientId = uniqueName('rotation');
    const created = await generate('--client-id', clientId, '--grant', 'client_credentials', '--scope', 'api2');
    expect(await applyAsTollgateDoes(created.migrationClass!)).toEqual([created.migrationClass!.name]);
    const [first, firstId] = [created.stdout.trim(), secretIdOf(created)];
    expect(await sql('SELECT id::text FROM client_secrets WHERE client_id = $1', [clientId])).toEqual([{ id: firstId }]);

    const added = await generate('--client-id', clientId, '--add-secret');
    expect(added.stderr).toMatch(
      new RegExp(`client:migration -- --client-id ${clientId} --expire-secrets-before \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\\n`),
    );
    await applyAsTollgateDoes(added.migrationClass!);
    const [second, secondId] = [added.stdout.trim(), secretIdOf(added)];
    expect((await clientCredentials(clientId, first)).status).toBe(200);
    expect((await clientCredentials(clientId, second)).status).toBe(200);

    const cutoff = /--expire-secrets-before (\S+)/.exec(added.stderr)![1];
    const expired = await generate('--client-id', clientId, '--expire-secrets-before', cutoff);
    expect({ code: expired.code, stdout: expired.stdout }).toEqual({ code: 0, stdout: '' });
    await applyAsTollgateDoes(expired.migrationClass!);
    expectTokenError(await clientCredentials(clientId, first), 401, 'invalid_client', { basicChallenge: true });
    expect((await clientCredentials(clientId, second)).status).toBe(200);
    await expect(expired.migration!.down(runner)).rejects.toThrow('Ending secrets cannot be undone by reverting');

    // The last valid secret is never ended nor removed: the migration fails and changes nothing.
    const endAll = await generate('--client-id', clientId, '--expire-secrets-before', new Date().toISOString());
    await expect(applyAsTollgateDoes(endAll.migrationClass!)).rejects.toThrow(`This would leave client "${clientId}" without a valid secret`);
    const removeLast = await generate('--client-id', clientId, '--remove-secret', secondId!.slice(0, 8));
    await expect(applyAsTollgateDoes(removeLast.migrationClass!)).rejects.toThrow(`This would leave client "${clientId}" without a valid secret`);
    expect((await clientCredentials(clientId, second)).status).toBe(200);

    const removed = await generate('--client-id', clientId, '--remove-secret', firstId!.slice(0, 13));
    await applyAsTollgateDoes(removed.migrationClass!);
    expect(await sql('SELECT id::text FROM client_secrets WHERE client_id = $1', [clientId])).toEqual([{ id: secondId }]);
    const again = await generate('--client-id', clientId, '--remove-secret', firstId!);
    await expect(applyAsTollgateDoes(again.migrationClass!)).rejects.toThrow(
      `Client "${clientId}" has 0 secrets whose id starts with "${firstId}": expected exactly one`,
    );
  });

  it('refuses a cutoff in the future and a secret id that is not one', async () => {
    const future = await generate('--client-id', 'api1', '--expire-secrets-before', '2999-01-01');
    expect(future.code).toBe(2);
    expect(future.stderr).toContain('--expire-secrets-before 2999-01-01T00:00:00.000Z is in the future');
    const notAnId = await generate('--client-id', 'api1', '--remove-secret', 'abc');
    expect(notAnId.code).toBe(2);
    expect(notAnId.stderr).toContain('--remove-secret "abc" must be a secret id (a UUID) or its first 8 or more characters');
  });

  it("type-checks every migration written above with the project's compiler options", async () => {
    // The checker catches what the generator once wrote for --add-secret and --disable.
    const broken = join(outDir, 'broken.ts');
    await writeFile(
      broken,
      `import type { QueryRunner } from 'typeorm';
export async function up(queryRunner: QueryRunner): Promise<void> {
  if (!(await queryRunner.query('SELECT 1')).length > 0) throw new Error('missing');
}
`,
    );
    expect(typeCheck([broken])).toEqual([expect.stringContaining("TS2365: Operator '>' cannot be applied to types 'boolean' and 'number'.")]);
    await rm(broken);

    const files = (await readdir(outDir)).filter((name) => name.endsWith('.ts'));
    const kinds = files.map((name) => /^\d{13}-(SetDelegationPolicy|[A-Z][a-z]+(?:Client)(?:Secrets?)?)/.exec(name)?.[1]);
    expect(new Set(kinds)).toEqual(
      new Set(['AddClient', 'AddClientSecret', 'ExpireClientSecrets', 'RemoveClientSecret', 'DisableClient', 'SetDelegationPolicy']),
    );
    expect(typeCheck(files.map((name) => join(outDir, name)))).toEqual([]);
  });
});
