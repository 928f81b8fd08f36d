import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { ensureBuilt, ROOT, runToExit } from '../support/built-service';
import { emptyDatabase, TEST_KEY_ENCRYPTION_KEY } from '../support/create-test-app';

const TOLLGATE = join(ROOT, 'dist/cli/tollgate.js');

/** `npm run keys:rotate` forces a rotation with the service's own modules, without HTTP. */
describe('npm run keys:rotate', () => {
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    await ensureBuilt();
    database = await emptyDatabase();
  });
  afterAll(() => database?.drop());

  const tollgate = (...argv: string[]) => {
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      ISSUER: 'https://tollgate.test',
      DATABASE_URL: database.url,
      KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
    };
    return runToExit(spawn(process.execPath, [TOLLGATE, ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }), 60_000);
  };
  const rotate = (...argv: string[]) => tollgate('keys:rotate', ...argv);

  async function tables(): Promise<{ tablename: string }[]> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows;
    } finally {
      await client.end();
    }
  }

  async function signingKeys(): Promise<{ kid: string; signs_now: boolean }[]> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query('SELECT kid, activates_at <= now() AS signs_now FROM signing_keys ORDER BY created_at')).rows;
    } finally {
      await client.end();
    }
  }

  it('stops on a database never migrated, then, once `tollgate migrate` ran, creates a key that signs at once with --immediately, and another on each run', async () => {
    // docs/operations.md#migrations: the command applies no migration, and creates nothing.
    const refused = await rotate('--immediately');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^tollgate keys:rotate: The database is behind this build by \d+ migrations/);
    expect(await tables()).toEqual([]);
    expect((await tollgate('migrate')).code).toBe(0);

    const first = await rotate('--immediately');
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    const second = await rotate('--immediately');
    expect(second.code).toBe(0);

    const keys = await signingKeys();
    expect(keys.length).toBeGreaterThanOrEqual(2);
    const newest = keys[keys.length - 1];
    expect(newest.signs_now).toBe(true);
    expect(second.stdout).toContain(`Signing key ${newest.kid} (RS256) created`);
  });

  it('refuses an unknown argument with its usage and exit code 2', async () => {
    const exit = await rotate('--bogus');
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain('unknown argument --bogus');
  });
});
