import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { Client } from 'pg';
import { createApp } from '../../src/app.factory';
import { emptyDatabase, testConfig, testDatabaseUrl, TEST_KEY_ENCRYPTION_KEY } from '../support/create-test-app';
import { ensureBuilt, freePort, ROOT, runToExit, spawnService, startService, stop } from '../support/built-service';
import { basic, jwtPayload, postForm, request, requestToken } from '../support/http';

/**
 * Starting the service: migrations under the advisory lock with several instances at once, the
 * configuration check, and the built service as a new user starts it (README), restarted on its data.
 */
describe('startup', () => {
  describe('three instances started at once against one empty database', () => {
    let database: { url: string; drop: () => Promise<void> };
    beforeAll(async () => {
      database = await emptyDatabase();
    });
    afterAll(() => database?.drop());

    it('all come up, share one signing key and serve tokens', async () => {
      const apps = await Promise.all([1, 2, 3].map(() => createApp(testConfig({ DATABASE_URL: database.url }))));
      try {
        const urls = await Promise.all(
          apps.map(async (app) => {
            await app.listen({ port: 0, host: '127.0.0.1' });
            return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
          }),
        );
        const tokens = await Promise.all(urls.map((url) => requestToken(url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' })));
        for (const response of tokens) expect(response.status).toBe(200);

        const keySets = await Promise.all(urls.map(async (url) => (await request(`${url}/.well-known/openid-configuration/jwks`)).body));
        expect(keySets[0].keys).toHaveLength(1);
        expect(keySets[1]).toEqual(keySets[0]);
        expect(keySets[2]).toEqual(keySets[0]);
        // A token from one instance is accepted by another.
        const delegated = await requestToken(urls[2], 'api1', 'api1-secret', {
          grant_type: 'delegation',
          token: (
            await requestToken(urls[0], 'frontend', 'frontend-secret', { grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid api1' })
          ).body.access_token,
          scope: 'api2',
        });
        expect(delegated.status).toBe(200);
      } finally {
        await Promise.all(apps.map((app) => app.close()));
      }
      const migrations = await query(database.url, 'SELECT name, count(*)::int AS count FROM migrations GROUP BY name');
      expect(migrations.length).toBeGreaterThan(0);
      for (const row of migrations) expect(row.count).toBe(1);
      expect(await query(database.url, 'SELECT count(*)::int AS count FROM signing_keys')).toEqual([{ count: 1 }]);
      expect(await query(database.url, "SELECT count(*)::int AS count FROM clients WHERE client_id IN ('frontend', 'api1', 'm2m')")).toEqual([{ count: 3 }]);
    });
  });

  describe('the built service', () => {
    const children = new Set<ChildProcess>();
    const directories: string[] = [];
    beforeAll(() => ensureBuilt(), 180_000);
    afterAll(async () => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
    });

    const tempDirectory = async () => {
      const directory = await mkdtemp(join(tmpdir(), 'tollgate-e2e-'));
      directories.push(directory);
      return directory;
    };

    it('stops on a bad configuration with exit code 1 and one message naming every bad variable', async () => {
      const bad = {
        PORT: 'abc',
        SIGNING_ALG: 'HS256',
        LOG_LEVEL: 'loud',
        ISSUER: 'ftp://tollgate.test',
        DATABASE_URL: 'mysql://localhost/db',
        SEED_DEMO: 'maybe',
      };
      // The working directory is empty, so a service that wrongly started would write nowhere that matters.
      const { code, stdout, stderr } = await runToExit(spawnService(bad, await tempDirectory(), children), 30_000);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      for (const name of Object.keys(bad)) expect(lines[0]).toContain(name);
    }, 60_000);

    it('refuses to start in production with an insecure issuer, demo data or no DATABASE_URL, naming each override', async () => {
      const env = { NODE_ENV: 'production', ISSUER: 'http://localhost:5000', SEED_DEMO: 'true', PORT: String(await freePort()) };
      const { code, stdout, stderr } = await runToExit(spawnService(env, await tempDirectory(), children), 30_000);
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr).toContain('ISSUER http://localhost:5000 is not https');
      expect(stderr).toContain('ALLOW_INSECURE_ISSUER=true overrides this');
      expect(stderr).toContain('ALLOW_DEMO_DATA=true overrides this');
      expect(stderr).toContain('DATABASE_URL must be set when NODE_ENV=production');
    }, 60_000);

    it('refuses to start in production with KEY_PROPAGATION_TIME under 15 minutes, and says why', async () => {
      const env = {
        NODE_ENV: 'production',
        ISSUER: 'https://id.example.com',
        DATABASE_URL: 'postgresql://tollgate@db.invalid:5432/tollgate',
        KEY_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
        KEY_PROPAGATION_TIME: '70s',
        PORT: String(await freePort()),
      };
      const { code, stdout, stderr } = await runToExit(spawnService(env, await tempDirectory(), children), 30_000);
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(
        'KEY_PROPAGATION_TIME is 70s: with NODE_ENV=production it must be at least 15m, as resource servers cache discovery and the JWKS for up to 10 minutes',
      );
      expect(lines[0]).not.toContain('ISSUER');
    }, 60_000);

    it('says which port is taken and how to choose another when PORT is in use', async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const { port } = taken.address() as AddressInfo;
      try {
        const env = { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: testDatabaseUrl(), KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
        const { code, stderr } = await runToExit(spawnService(env, await tempDirectory(), children), 90_000);
        expect(code).toBe(1);
        expect(stderr).toContain(
          `Tollgate failed to start: port ${port} on 127.0.0.1 is in use by another process: stop it, or set PORT to a free port (e.g. PORT=5001 npm start)`,
        );
      } finally {
        taken.close();
      }
    }, 120_000);

    it('warns at start that ALLOW_INSECURE_ISSUER lets an http issuer through in production', async () => {
      const env = {
        NODE_ENV: 'production',
        ISSUER: 'http://tollgate.bench',
        ALLOW_INSECURE_ISSUER: 'true',
        DATABASE_URL: testDatabaseUrl(),
        KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
        PORT: String(await freePort()),
      };
      const log = await stop(await startService(env, children));
      const warning = log.split('\n').find((line) => line.includes('ALLOW_INSECURE_ISSUER=true'));
      expect(JSON.parse(warning ?? '{}')).toMatchObject({
        level: 40,
        msg: 'ALLOW_INSECURE_ISSUER=true: ISSUER http://tollgate.bench is not https, and tokens, codes and passwords cross the network in clear text. For test benches only: never expose this instance.',
      });
    }, 120_000);

    it('lets one process at a time use a DATA_DIR: a second service or operator command stops with a clear message', async () => {
      const dataDir = await tempDirectory();
      const env = { PORT: String(await freePort()), DATA_DIR: dataDir };
      const first = await startService(env, children);
      const inUse = `DATA_DIR ${dataDir} is in use by process ${first.child.pid} (since `;

      const second = await runToExit(spawnService({ PORT: String(await freePort()), DATA_DIR: dataDir }, await tempDirectory(), children), 60_000);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(inUse);
      expect(second.stderr).toContain('use a PostgreSQL server (DATABASE_URL) to run several');
      // The message says it all: no stack trace, in the log or on the terminal.
      expect(`${second.stdout}${second.stderr}`).not.toMatch(/\n\s+at |"stack"/);

      const rotate = () =>
        runToExit(
          spawn(process.execPath, [join(ROOT, 'dist/cli/tollgate.js'), 'keys:rotate'], {
            cwd: ROOT,
            env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
            stdio: ['ignore', 'pipe', 'pipe'],
          }),
          60_000,
        );
      const refused = await rotate();
      expect(refused.code).toBe(1);
      // One line: the command's name and the message, without Nest's (coloured) stack trace.
      expect(refused.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^tollgate keys:rotate: DATA_DIR /)]);
      expect(refused.stderr).toContain(inUse);
      // The service was not disturbed, and once it stops the directory is free.
      expect((await request(`http://127.0.0.1:${env.PORT}/health/ready`)).status).toBe(200);
      await stop(first);
      expect((await rotate()).code).toBe(0);
    }, 180_000);

    it('completes the README walk-through on a fresh DATA_DIR, and again after a restart on the same DATA_DIR', async () => {
      const dataDir = await tempDirectory();
      const port = await freePort();
      const env = { PORT: String(port), DATA_DIR: dataDir };

      const first = await startService(env, children);
      const firstRun = await walkThrough(port);
      await runReadmeCommands(port);
      const firstLog = await stop(first);
      // docs/client-authentication.md: the request log names requests, never their credentials or tokens.
      expect(firstLog).toContain('/connect/token');
      expect(firstLog).toContain('SEED_DEMO=true: the demo data set is applied; its client secrets and user passwords are public.');
      // Where a new user goes from here: a first token, the demo users, the walk-through.
      expect(firstLog).toContain(`"msg":"Tollgate listening on 0.0.0.0:${port}, issuer http://localhost:${port}"`);
      expect(firstLog).toContain(
        `"msg":"Next: a first token with curl -u m2m:<its secret> -d grant_type=client_credentials -d scope=api1 http://localhost:${port}/connect/token, with the secret of the demo client m2m`,
      );
      for (const secret of ['frontend-secret', 'api1-secret', firstRun.userToken, firstRun.delegatedToken]) expect(firstLog).not.toContain(secret);

      const second = await startService(env, children);
      const secondRun = await walkThrough(port);
      await runReadmeCommands(port);
      // The signing key and the users live in DATA_DIR: a token from before the restart is still good.
      expect(secondRun.kid).toBe(firstRun.kid);
      const delegated = await requestToken(`http://127.0.0.1:${port}`, 'api1', 'api1-secret', {
        grant_type: 'delegation',
        token: firstRun.userToken,
        scope: 'api2',
      });
      expect(delegated.status).toBe(200);
      const secondLog = await stop(second);
      expect(secondLog).toContain('SEED_DEMO=true: the demo data set is applied; its client secrets and user passwords are public.');
      for (const secret of ['frontend-secret', 'api1-secret', firstRun.userToken, secondRun.userToken, secondRun.delegatedToken]) {
        expect(secondLog).not.toContain(secret);
      }
    }, 180_000);
  });
});

/** An empty database of its own: on the PostgreSQL server of the run, or on a PGlite of its own. */

async function query(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** README "Delegation walk-through", step by step over HTTP, each token verified against the JWKS. */
async function walkThrough(port: number): Promise<{ userToken: string; delegatedToken: string; kid: string }> {
  const base = `http://127.0.0.1:${port}`;
  const issuer = `http://localhost:${port}`;
  const jwks = createRemoteJWKSet(new URL(`${base}/.well-known/openid-configuration/jwks`));

  const login = await postForm(
    `${base}/connect/token`,
    { grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid profile api1' },
    {
      authorization: basic('frontend', 'frontend-secret'),
    },
  );
  expect(login.status).toBe(200);
  const userToken: string = login.body.access_token;
  const { protectedHeader } = await jwtVerify(userToken, jwks, { issuer, audience: 'api1', typ: 'at+jwt' });

  const exchange = await postForm(
    `${base}/connect/token`,
    { grant_type: 'delegation', token: userToken, scope: 'api2' },
    {
      authorization: basic('api1', 'api1-secret'),
    },
  );
  expect(exchange.status).toBe(200);
  const { payload } = await jwtVerify(exchange.body.access_token, jwks, { issuer, audience: 'api2', typ: 'at+jwt' });
  expect(payload).toMatchObject({ sub: '1', aud: 'api2', client_id: 'api1', scope: 'api2', amr: ['delegation'], act: { client_id: 'api1' } });
  expect(payload.auth_time).toBe(jwtPayload(userToken).auth_time);
  return { userToken, delegatedToken: exchange.body.access_token, kid: protectedHeader.kid! };
}

/** The README's walk-through commands themselves, run by bash against this port. */
async function runReadmeCommands(port: number): Promise<void> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Delegation walk-through'));
  const script = /```(?:sh|bash)\n([\s\S]*?)```/.exec(section)?.[1];
  expect(script).toContain('grant_type=delegation');
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script!.replaceAll('localhost:5000', `127.0.0.1:${port}`)], {
    cwd: ROOT,
    timeout: 30_000,
  });
  const decoded = JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1));
  expect(decoded).toMatchObject({ sub: '1', aud: 'api2', client_id: 'api1', amr: ['delegation'], act: { client_id: 'api1' } });
}
