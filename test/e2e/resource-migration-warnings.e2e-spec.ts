import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureBuilt, ROOT, runToExit, type Exit } from '../support/built-service';
import { sql, testDatabaseUrl, TEST_KEY_ENCRYPTION_KEY } from '../support/create-test-app';
import { uniqueName } from '../support/fixtures';
import { SCRATCH_ROOT } from '../support/type-check';

const TOLLGATE = join(ROOT, 'dist/cli/tollgate.js');

/**
 * `resource:migration` over the real command line (docs/operations.md): an API resource that shares
 * a scope with another is written, with a warning that tokens with that scope name both, and that
 * self-registered clients get only the resources opened to them (docs/agents.md).
 */
describe('resource:migration warns of scopes shared with another resource', () => {
  let outDir: string;
  const open = uniqueName('open-api');
  const shared = `${open}.shared`;

  beforeAll(async () => {
    [outDir] = await Promise.all([mkdir(SCRATCH_ROOT, { recursive: true }).then(() => mkdtemp(join(SCRATCH_ROOT, 'shared-scopes-'))), ensureBuilt()]);
    await sql('INSERT INTO api_resources (name, scopes, open_to_self_registered) VALUES ($1, $2, true)', [open, [shared]]);
  }, 180_000);
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  async function generate(...argv: string[]): Promise<Exit & { written: number }> {
    const before = (await readdir(outDir)).length;
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: testDatabaseUrl(), KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, [TOLLGATE, 'resource:migration', ...argv, '--out-dir', outDir, '--no-index'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exit = await runToExit(child, 60_000);
    return { ...exit, written: (await readdir(outDir)).length - before };
  }

  it('warns when a new resource shares a scope with one open to self-registered clients, and still writes it', async () => {
    const closed = uniqueName('closed-api');
    const added = await generate('--api', closed, '--scope', `${shared} ${closed}.admin`);
    expect({ code: added.code, written: added.written }).toEqual({ code: 0, written: 1 });
    expect(added.stderr).toContain(
      `resource:migration: warning: API resource "${closed}" shares the scope ${shared} with API resource "${open}": a token with it names both in aud.`,
    );
    expect(added.stderr).toContain(`Clients that registered themselves get only "${open}" (opened to them)`);
  });

  it('warns when a change gives a resource a scope another has, or opens or closes one that shares a scope', async () => {
    const other = uniqueName('other-api');
    await sql('INSERT INTO api_resources (name, scopes) VALUES ($1, $2)', [other, [`${other}.read`]]);
    const changed = await generate('--api', other, '--change', '--scope', `${other}.read ${shared}`);
    expect(changed.code).toBe(0);
    expect(changed.stderr).toContain(`warning: API resource "${other}" shares the scope ${shared} with API resource "${open}"`);

    const sibling = uniqueName('sibling-api');
    await sql('INSERT INTO api_resources (name, scopes) VALUES ($1, $2)', [sibling, [shared]]);
    const closed = await generate('--api', open, '--change', '--close-to-self-registered');
    expect(closed.code).toBe(0);
    expect(closed.stderr).toContain(`warning: API resource "${open}" shares the scope ${shared} with API resource "${sibling}"`);
    expect(closed.stderr).toContain('Clients that registered themselves get neither.');
  });

  it('says nothing of a resource whose scopes are its own', async () => {
    const own = uniqueName('own-api');
    const added = await generate('--api', own, '--scope', `${own}.read`);
    expect({ code: added.code, written: added.written }).toEqual({ code: 0, written: 1 });
    expect(added.stderr).not.toContain('warning');
  });
});
