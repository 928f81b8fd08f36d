import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/built-service';
import { emptyDatabase, TEST_KEY_ENCRYPTION_KEY } from '../support/create-test-app';
import { SCRATCH_ROOT } from '../support/type-check';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Operator commands never apply a migration (docs/operations.md#migrations). In a copy of the project
 * (its sources, its node_modules linked), with the npm scripts an operator types, against a database
 * of its own: a client:migration is written into the copy's migrations/, and until `npm run migrate`
 * every other command stops with exit code 3, naming it, while the migrations table still lacks it.
 */
describe('operator commands and pending migrations', () => {
  let database: { url: string; drop: () => Promise<void> };
  let project: string;

  beforeAll(async () => {
    await mkdir(SCRATCH_ROOT, { recursive: true });
    [database, project] = await Promise.all([emptyDatabase(), mkdtemp(join(SCRATCH_ROOT, 'operator-migrations-'))]);
    await Promise.all(
      ['src', 'cli', 'migrations', 'scripts', 'package.json', 'package-lock.json'].map((entry) =>
        cp(join(ROOT, entry), join(project, entry), { recursive: true }),
      ),
    );
    await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'));
  });
  afterAll(async () => {
    await database?.drop();
    if (project) await rm(project, { recursive: true, force: true });
  });

  /** `npm run -s <script> -- …` in the copy (each builds first when a source changed, as for an operator). */
  async function npmRun(script: string, ...argv: string[]): Promise<Run> {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? project,
      DATABASE_URL: database.url,
      KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      LOG_LEVEL: 'warn',
    };
    try {
      const { stdout, stderr } = await promisify(execFile)('npm', ['run', '-s', script, '--', ...argv], { cwd: project, env, timeout: 120_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const { code, stdout = '', stderr = '' } = error as { code?: number; stdout?: string; stderr?: string };
      if (typeof code !== 'number') throw error;
      return { code, stdout, stderr };
    }
  }

  async function rows(text: string): Promise<Record<string, unknown>[]> {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  }

  it('stop with exit code 3 until `npm run migrate` applies the migration they name', async () => {
    // A database never migrated: the commands say so and create nothing, not even the migrations table.
    const fresh = await npmRun('clients', 'list');
    expect(fresh).toMatchObject({ code: 3, stdout: '' });
    expect(fresh.stderr).toMatch(
      /The database is behind this build by \d+ migrations \(InitialSchema1763870400000, …, \w+\)\. Operator commands never apply migrations/,
    );
    expect(await rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
    const base = await npmRun('migrate');
    expect(base).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Applied: InitialSchema1763870400000, /) });

    const written = await npmRun('client:migration', '--client-id', 'ops-added', '--grant', 'client_credentials', '--scope', 'api1');
    expect(written.code).toBe(0);
    expect(written.stderr).toContain('It is applied when Tollgate starts with it, or by `tollgate migrate` (npm run migrate)');
    const [file] = (await readdir(join(project, 'migrations'))).filter((name) => name.endsWith('-AddClientOpsAdded.ts'));
    const name = `AddClientOpsAdded${file.split('-')[0]}`;

    // Read-only and writing commands alike: nothing applied, nothing done.
    for (const [script, ...argv] of [['clients', 'list'], ['users', 'show', 'alice'], ['keys:rotate'], ['registration-tokens', 'list']]) {
      const run = await npmRun(script, ...argv);
      expect({ script, code: run.code, stdout: run.stdout }).toEqual({ script, code: 3, stdout: '' });
      expect(run.stderr).toContain(`The database is behind this build by 1 migration (${name}).`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    const refused = await npmRun('client:migration', '--client-id', 'ops-other', '--grant', 'client_credentials', '--scope', 'api1');
    expect(refused).toMatchObject({ code: 3, stdout: '' });
    expect(refused.stderr).toContain('Nothing was written; --offline writes the migration without checking the database.');
    expect((await readdir(join(project, 'migrations'))).filter((entry) => entry.includes('OpsOther'))).toEqual([]);
    expect(await rows(`SELECT name FROM migrations WHERE name LIKE 'AddClientOps%'`)).toEqual([]);
    expect(await rows('SELECT client_id FROM clients')).toEqual([]);
    expect(await rows('SELECT count(*)::int AS count FROM signing_keys')).toEqual([{ count: 0 }]);

    expect(await npmRun('migrate', '--check')).toMatchObject({ code: 3, stdout: `Pending: ${name}\n` });
    expect(await npmRun('migrate')).toMatchObject({ code: 0, stdout: `Applied: ${name}\n` });
    expect(await npmRun('migrate', '--check')).toMatchObject({ code: 0, stdout: 'No pending migration.\n' });
    const listed = await npmRun('clients', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/\nops-added +/);
  }, 300_000);
});
