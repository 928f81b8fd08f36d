import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource, type MigrationInterface } from 'typeorm';
import { migrations as baseMigrations } from '../../migrations';
import { createApp } from '../../src/app.factory';
import { runClientMigrationCommand, type CommandIo } from '../../cli/client-migration/client-migration.command';
import { loadConfig } from '../../src/platform/config/app.config';
import { dataSourceOptions } from '../../src/platform/database/database.config';
import { runMigrationsExclusively } from '../../src/platform/database/migration-runner';
import { runResourceMigrationCommand } from '../../cli/resource-migration/resource-migration.command';
import { ensureBuilt, ROOT, runToExit } from '../support/built-service';
import { emptyDatabase, TEST_KEY_ENCRYPTION_KEY } from '../support/create-test-app';
import { jwtPayload, requestToken } from '../support/http';
import { SCRATCH_ROOT, typeCheck } from '../support/type-check';

/**
 * docs/operations.md "Production install": from an empty PostgreSQL database to a working delegation with the
 * documented commands only — resource:migration, client:migration, the service's start (which
 * applies migrations) with NODE_ENV=production. Generated files are type-checked like migrations/.
 */
describe('a production install from an empty database', () => {
  let database: { url: string; drop: () => Promise<void> };
  let outDir: string;
  beforeAll(async () => {
    database = await emptyDatabase();
    await mkdir(SCRATCH_ROOT, { recursive: true });
    outDir = await mkdtemp(join(SCRATCH_ROOT, 'production-install-'));
  });
  afterAll(async () => {
    await database?.drop();
    await rm(outDir, { recursive: true, force: true });
  });

  let clock = Date.parse('2026-11-23T10:00:00Z');
  /** `tollgate <command> …` into the scratch directory; returns its stdout (a new secret, if any). */
  async function run(command: typeof runClientMigrationCommand, ...argv: string[]): Promise<string> {
    let stdout = '';
    let stderr = '';
    const io: CommandIo = {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      cwd: outDir,
      defaultOutDir: outDir,
      now: () => new Date((clock += 1000)),
    };
    expect({ code: await command([...argv, '--no-index'], io), stderr }).toEqual({ code: 0, stderr: expect.stringContaining('Wrote ') });
    return stdout.trim();
  }

  it('serves a delegation with resources, clients and a user added by the documented commands', async () => {
    // The base schema alone: the standard identity resources, nothing else.
    await migrateAsTheServiceDoes(database.url, []);
    expect(await rows(database.url, 'SELECT name FROM identity_resources ORDER BY name')).toEqual(
      ['address', 'email', 'openid', 'phone', 'profile', 'role'].map((name) => ({ name })),
    );
    expect(await rows(database.url, 'SELECT count(*)::int AS count FROM clients')).toEqual([{ count: 0 }]);

    await run(runResourceMigrationCommand, '--api', 'api1', '--scope', 'api1', '--uri', 'https://api1.example.com/', '--served-by', 'api1');
    await run(runResourceMigrationCommand, '--api', 'api2', '--scope', 'api2');
    const frontendSecret = await run(runClientMigrationCommand, '--client-id', 'frontend', '--grant', 'password', '--scope', 'openid profile api1');
    const api1Secret = await run(runClientMigrationCommand, '--client-id', 'api1', '--grant', 'delegation', '--scope', 'openid api2');

    const files = (await readdir(outDir)).sort().map((name) => join(outDir, name));
    expect(typeCheck(files)).toEqual([]);
    const generated: (new () => MigrationInterface)[] = [];
    for (const file of files) generated.push(...(Object.values(await import(file)) as (new () => MigrationInterface)[]));
    expect(await migrateAsTheServiceDoes(database.url, generated)).toEqual(generated.map((migration) => migration.name));

    expect(await rows(database.url, 'SELECT name, resource_uri, serving_client_id FROM api_resources ORDER BY name')).toEqual([
      { name: 'api1', resource_uri: 'https://api1.example.com/', serving_client_id: 'api1' },
      { name: 'api2', resource_uri: null, serving_client_id: null },
      // The Shared Signals stream API's scope: every database has it (docs/signals.md#receivers).
      { name: 'ssf', resource_uri: null, serving_client_id: null },
    ]);

    // The user, with the documented operator command (docs/users.md); the password comes on standard input.
    await ensureBuilt();
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
    const command = spawn(process.execPath, [join(ROOT, 'dist/cli/tollgate.js'), 'users', 'add', 'carol', '--sub', 'u-1', '--claims', '{"name":"Carol"}'], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    command.stdin.end('correct horse battery staple\n');
    expect(await runToExit(command, 60_000)).toMatchObject({ code: 0, stderr: '' });

    const app = await createApp(
      loadConfig({
        NODE_ENV: 'production',
        ISSUER: 'https://id.example.com',
        DATABASE_URL: database.url,
        KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
        LOG_LEVEL: 'silent',
        RATE_LIMIT_PER_CLIENT: '0',
        RATE_LIMIT_PER_ADDRESS: '0',
      }),
    );
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
      const login = await requestToken(base, 'frontend', frontendSecret, {
        grant_type: 'password',
        username: 'carol',
        password: 'correct horse battery staple',
        scope: 'openid profile api1',
      });
      expect(login.status).toBe(200);
      expect(jwtPayload(login.body.access_token)).toMatchObject({ iss: 'https://id.example.com', sub: 'u-1', aud: 'api1' });
      const delegated = await requestToken(base, 'api1', api1Secret, { grant_type: 'delegation', token: login.body.access_token, scope: 'api2' });
      expect(delegated.status).toBe(200);
      expect(jwtPayload(delegated.body.access_token)).toMatchObject({ sub: 'u-1', aud: 'api2', scope: 'api2', act: { client_id: 'api1' } });
      // Nothing of the demo set is there.
      expect((await requestToken(base, 'm2m', 'm2m-secret', { grant_type: 'client_credentials' })).status).toBe(401);
    } finally {
      await app.close();
    }
  });
});

/** At start the service applies pending migrations (base ones, then the operator's from migrations/index.ts) under its lock. */
async function migrateAsTheServiceDoes(url: string, generated: (new () => MigrationInterface)[]): Promise<string[]> {
  const dataSource = await new DataSource({ ...dataSourceOptions(url, 1), migrations: [...baseMigrations, ...generated] }).initialize();
  try {
    return await runMigrationsExclusively(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

async function rows(url: string, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}
