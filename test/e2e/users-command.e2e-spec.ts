import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pbkdf2Sync } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { ensureBuilt, ROOT, runToExit, type Exit } from '../support/built-service';
import { sql, startTestServer, testDatabaseUrl, TEST_KEY_ENCRYPTION_KEY, type TestServer } from '../support/create-test-app';
import { uniqueName } from '../support/fixtures';
import { basic, postForm } from '../support/http';

const TOLLGATE = join(ROOT, 'dist/cli/tollgate.js');

/** The operator's user command (docs/users.md), run as a process against the run's database. */
describe('npm run users', () => {
  let server: TestServer;

  beforeAll(async () => {
    await ensureBuilt();
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const env = () => ({ PATH: process.env.PATH ?? '', DATABASE_URL: testDatabaseUrl(), KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, LOG_LEVEL: 'warn' });

  function users(argv: string[], stdin = ''): Promise<Exit> {
    const child = spawn(process.execPath, [TOLLGATE, 'users', ...argv], { cwd: ROOT, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(stdin);
    return runToExit(child, 60_000);
  }

  /**
   * The command at a terminal: script(1) runs it on a pseudo-terminal, and each answer is typed
   * once its prompt shows, Enter included; standard input stays open (no Ctrl-D) until it exits.
   * `stdout` is everything the terminal showed.
   */
  async function usersAtTerminal(argv: string[], answers: readonly string[]): Promise<Exit> {
    const command = [process.execPath, TOLLGATE, 'users', ...argv].map((word) => `'${word}'`).join(' ');
    const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
      cwd: ROOT,
      env: env(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let shown = '';
    let answered = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      shown += chunk.toString();
      const prompted = shown.match(/Password: |password again: /g)?.length ?? 0;
      while (answered < Math.min(prompted, answers.length)) child.stdin.write(answers[answered++]);
    });
    const exit = await runToExit(child, 60_000);
    child.stdin.end();
    return exit;
  }

  const signIn = (username: string, password: string) =>
    postForm(
      `${server.url}/connect/token`,
      { grant_type: 'password', username, password, scope: 'openid' },
      { authorization: basic('frontend', 'frontend-secret') },
    );

  const storedHash = async (username: string) =>
    (await sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE username = $1', [username]))[0].password_hash;

  it('adds a user whose password comes from standard input, then disables and enables it', async () => {
    const username = uniqueName('carol');
    const added = await users(['add', username, '--claims', '{"name":"Carol Example"}', '--role', 'user'], 'carol-password\n');
    expect({ code: added.code, stderr: added.stderr }).toEqual({ code: 0, stderr: '' });
    expect(added.stdout).not.toContain('carol-password');
    expect((await signIn(username, 'carol-password')).status).toBe(200);

    expect((await users(['disable', username])).code).toBe(0);
    expect((await signIn(username, 'carol-password')).body.error).toBe('invalid_grant');
    expect((await users(['enable', username])).code).toBe(0);
    expect((await signIn(username, 'carol-password')).status).toBe(200);

    expect((await users(['set-password', username], 'another-password\n')).code).toBe(0);
    expect((await signIn(username, 'carol-password')).status).toBe(400);
    expect((await signIn(username, 'another-password')).status).toBe(200);
  });

  it('at a terminal, reads the password twice without echoing it, each ended by Enter', async () => {
    const username = uniqueName('frank');
    const added = await usersAtTerminal(['add', username], ['frank-password\r', 'frank-password\r']);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Password: ');
    expect(added.stdout).toContain('The same password again: ');
    expect(added.stdout).toContain(`Added user ${username}`);
    expect(added.stdout + added.stderr).not.toContain('frank-password');
    expect((await signIn(username, 'frank-password')).status).toBe(200);

    const changed = await usersAtTerminal(['set-password', username], ['frank-new-password\r', 'frank-new-password\r']);
    expect(changed.code).toBe(0);
    expect(changed.stdout + changed.stderr).not.toContain('frank-new-password');
    expect((await signIn(username, 'frank-new-password')).status).toBe(200);
  });

  it('at a terminal, refuses two different passwords and adds no user', async () => {
    const username = uniqueName('gina');
    const refused = await usersAtTerminal(['add', username], ['gina-password\r', 'gina-passwork\r']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('the two passwords typed differ');
    expect(refused.stdout).not.toContain('gina-pass');
    expect(await sql('SELECT 1 FROM users WHERE username = $1', [username])).toEqual([]);
  });

  it('refuses a password on the command line and a missing user with their exit codes', async () => {
    const refused = await users(['add', uniqueName('x'), '--password', 'on-the-command-line']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Usage:');
    const missing = await users(['disable', uniqueName('nobody')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no user named');
  });

  it('imports bcrypt and PBKDF2 hashes that sign in as they are and become scrypt at the first sign-in', async () => {
    const [dave, erin, bad] = [uniqueName('dave'), uniqueName('erin'), uniqueName('bad')];
    const salt = 'djangosalt';
    const django = `pbkdf2_sha256$1000$${salt}$${pbkdf2Sync('erin-password', salt, 1000, 32, 'sha256').toString('base64')}`;
    const directory = mkdtempSync(join(tmpdir(), 'tollgate-users-'));
    const file = join(directory, 'users.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ username: dave, password_hash: bcrypt.hashSync('dave-password', 4), claims: { email: `${dave}@example.com` }, roles: ['user'] }),
        JSON.stringify({ username: erin, password_hash: django }),
        JSON.stringify({ username: bad, password_hash: 'md5$0123' }),
      ].join('\n'),
    );

    // Read by the command, then removed: the suite leaves nothing in the temporary directory.
    const imported = await users(['import', file]).finally(() => rmSync(directory, { recursive: true, force: true }));
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain('Imported 2 user(s); 1 line(s) refused.');
    expect(imported.stderr).toContain('line 3: unrecognised password hash format');

    expect(await storedHash(dave)).toMatch(/^\$2b\$04\$/);
    expect((await signIn(dave, 'wrong-password')).status).toBe(400);
    expect((await signIn(dave, 'dave-password')).status).toBe(200);
    expect(await storedHash(dave)).toMatch(/^scrypt\$/);
    expect((await signIn(dave, 'dave-password')).status).toBe(200);

    expect(await storedHash(erin)).toMatch(/^pbkdf2-sha256\$1000\$/);
    expect((await signIn(erin, 'erin-password')).status).toBe(200);
    expect(await storedHash(erin)).toMatch(/^scrypt\$/);
    expect(await sql('SELECT 1 FROM users WHERE username = $1', [bad])).toEqual([]);
  });

  it('shows how many passkeys a user has, never their keys, and removes them all', async () => {
    const username = uniqueName('keyholder');
    expect((await users(['add', username], 'keyholder-password\n')).code).toBe(0);
    const [{ subject_id: subject }] = await sql<{ subject_id: string }>('SELECT subject_id FROM users WHERE username = $1', [username]);
    for (const id of ['cred-one', 'cred-two']) {
      await sql("INSERT INTO passkeys (credential_id, subject_id, user_handle, public_key, name) VALUES ($1, $2, 'handle', '\\xa501020326', 'key')", [
        `${id}-${subject}`,
        subject,
      ]);
    }
    const shown = await runToExit(spawn(process.execPath, [TOLLGATE, 'users', 'show', username, '--json'], { cwd: ROOT, env: env() }), 60_000);
    expect(JSON.parse(shown.stdout)).toMatchObject({ username, passkeys: 2 });
    expect(shown.stdout).not.toMatch(/a501020326|cred-one|handle/);

    const removed = await users(['remove-passkeys', username]);
    expect({ code: removed.code, stdout: removed.stdout }).toEqual({ code: 0, stdout: `Removed 2 passkey(s) of user ${username}.\n` });
    expect(await sql('SELECT 1 FROM passkeys WHERE subject_id = $1', [subject])).toEqual([]);
    expect((await users(['remove-passkeys', uniqueName('nobody')])).code).toBe(1);
  });
});
