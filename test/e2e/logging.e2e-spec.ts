import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRootLogger } from '../../src/platform/logging/root-logger';
import { ensureBuilt, freePort, runToExit, spawnService, startService, stop } from '../support/built-service';
import { emptyDatabase, startTestServer, TEST_KEY_ENCRYPTION_KEY, type TestServer } from '../support/create-test-app';
import { basic, request, requestToken } from '../support/http';

const FRAMEWORK_CONTEXTS = ['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication'];
const INFO = 30;

const parse = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** One pino logger for Nest's own messages, the request log and the audit trail. */
describe('one logger', () => {
  const lines: string[] = [];
  let server: TestServer;

  beforeAll(async () => {
    // At debug, to see what info leaves out (records below level 30).
    const logger = createRootLogger('debug', { write: (line: string) => void lines.push(line) });
    server = await startTestServer({ LOG_LEVEL: 'debug' }, { logger });
  });
  afterAll(() => server.close());

  it("writes Nest's own messages, request lines and audit lines to the same destination, each a JSON line, with no credential", async () => {
    const issued = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
    expect(issued.status).toBe(200);
    const accessToken: string = issued.body.access_token;
    expect((await request(`${server.url}/connect/userinfo?access_token=${accessToken}`, { headers: { cookie: `session=${accessToken}` } })).status).toBe(401);

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // Nest's own start-up lines are debug; the service's own messages through Nest's Logger are info.
    expect(records).toContainEqual(expect.objectContaining({ level: 20, context: 'NestApplication', msg: 'Nest application successfully started' }));
    expect(records).toContainEqual(expect.objectContaining({ level: 30, context: 'SigningKeyStore' }));
    expect(records.filter((record) => FRAMEWORK_CONTEXTS.includes(record.context as string) && (record.level as number) >= INFO)).toEqual([]);
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 30,
        reqId: expect.any(String),
        req: { method: 'POST', path: '/connect/token', remoteAddress: '127.0.0.1' },
        msg: 'incoming request',
      }),
    );
    expect(records).toContainEqual(expect.objectContaining({ level: 30, reqId: expect.any(String), res: { statusCode: 200 }, msg: 'request completed' }));
    expect(records).toContainEqual(expect.objectContaining({ req: { method: 'GET', path: '/connect/userinfo', remoteAddress: '127.0.0.1' } }));
    expect(records).toContainEqual(
      expect.objectContaining({ level: 30, kind: 'audit', audit: 'token.issued', clientId: 'm2m', grantType: 'client_credentials', scopes: ['api1'] }),
    );
    // One process, one logger: every record carries the same base fields.
    expect(new Set(records.map(({ pid, hostname }) => `${pid}@${hostname}`))).toEqual(new Set([`${process.pid}@${records[0].hostname}`]));

    const output = lines.join('');
    for (const secret of ['m2m-secret', basic('m2m', 'm2m-secret').slice('Basic '.length), accessToken, accessToken.split('.')[2]])
      expect(output).not.toContain(secret);
  });

  it('drops path parameters after ";" (matrix parameters) from the request log, as it drops the query string', async () => {
    const before = lines.length;
    for (const path of [
      '/connect/authorize;code=short-code-1',
      '/connect/authorize;jsessionid=s2;code=short-code-2?state=x',
      '/.well-known;p=short-code-3/openid-configuration',
    ])
      await request(`${server.url}${path}`);
    const logged = lines.slice(before).map((line) => JSON.parse(line) as { req?: { path: string } });
    const paths = logged.flatMap(({ req }) => (req ? [req.path] : []));
    expect(paths).toEqual(['/connect/authorize', '/connect/authorize', '/.well-known']);
    expect(lines.slice(before).join('')).not.toMatch(/short-code/);
  });

  it('logs health probes at debug, other requests at info', async () => {
    lines.length = 0;
    expect((await request(`${server.url}/health/live`)).status).toBe(200);
    expect((await request(`${server.url}/health/ready`)).status).toBe(200);
    expect((await request(`${server.url}/.well-known/openid-configuration`)).status).toBe(200);

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const about = (path: string) => records.filter((record) => (record.req as { path?: string } | undefined)?.path === path);
    for (const path of ['/health/live', '/health/ready']) {
      expect(about(path)).toEqual([expect.objectContaining({ level: 20, msg: 'incoming request' })]);
      expect(records).toContainEqual(expect.objectContaining({ level: 20, reqId: about(path)[0].reqId, msg: 'request completed', res: { statusCode: 200 } }));
    }
    expect(about('/.well-known/openid-configuration')).toEqual([expect.objectContaining({ level: 30, msg: 'incoming request' })]);
  });
});

/** What an operator reads when the built service starts in production, and when its database cannot be reached. */
describe('the production log', () => {
  const children = new Set<ChildProcess>();
  let database: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    await ensureBuilt();
    database = await emptyDatabase();
  }, 180_000);
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await database?.drop();
  });

  it('a first start logs at most 10 lines at info, and probes and metrics scrapes none', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const env = {
      NODE_ENV: 'production',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      ISSUER: 'https://tollgate.example',
      DATABASE_URL: database.url,
      KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
    };
    const service = await startService(env, children);
    for (let i = 0; i < 3; i++) {
      expect((await request(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
      expect((await request(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);
    }
    const output = await stop(service);

    const records = parse(output);
    const startup = records.slice(0, records.findIndex((record) => String(record.msg).startsWith('Tollgate listening on')) + 1);
    expect(startup.length).toBeGreaterThan(0);
    expect(startup.length).toBeLessThanOrEqual(10);
    expect(output).not.toContain('/health/');
    expect(output).not.toContain('/metrics ');
    expect(output).not.toContain('"stack"');
  }, 180_000);

  it('a database it cannot reach: one line naming DATABASE_URL with the password masked, no stack trace', async () => {
    const closedPort = await freePort();
    const url = `postgresql://tollgate:pass-w0rd-secret@127.0.0.1:${closedPort}/tollgate`;
    const cwd = await mkdtemp(join(tmpdir(), 'tollgate-e2e-'));
    try {
      const env = {
        NODE_ENV: 'production',
        PORT: String(await freePort()),
        ISSUER: 'https://tollgate.example',
        DATABASE_URL: url,
        KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      };
      const { code, stdout, stderr } = await runToExit(spawnService(env, cwd, children), 60_000);
      expect(code).toBe(1);
      const named = `DATABASE_URL=postgresql://tollgate:****@127.0.0.1:${closedPort}/tollgate`;
      expect(stderr.trim().split('\n')).toEqual([expect.stringContaining(named)]);
      expect(stderr).toContain('ECONNREFUSED');
      // The log: a warning per retry and the failure, each one line naming the setting.
      for (const record of parse(stdout)) expect(record).toEqual({ ...record, msg: expect.stringContaining(named) });
      expect(parse(stdout).filter((record) => record.level === 50)).toHaveLength(1);
      for (const text of ['pass-w0rd-secret', '"stack"', '    at ']) expect(stdout + stderr).not.toContain(text);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  }, 90_000);
});
