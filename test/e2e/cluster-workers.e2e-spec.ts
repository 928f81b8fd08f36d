import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { Client } from 'pg';
import { emptyDatabase, ISSUER, TEST_KEY_ENCRYPTION_KEY } from '../support/create-test-app';
import { ensureBuilt, freePort, ROOT, runToExit, spawnService } from '../support/built-service';
import { ServiceProcess } from '../support/service-process';
import { CuttableProxy } from '../support/cuttable-proxy';
import { request, requestTokenFrom } from '../support/http';
import { LOAD_MARGIN_MS } from '../support/token-lifecycle';

const REQUESTS = 60;
const SUCCESS = 'tollgate_http_requests_total{endpoint="/connect/token",grant_type="client_credentials",outcome="success"}';
const ISSUED = 'tollgate_tokens_issued_total{grant_type="client_credentials"}';

function sample(metrics: string, series: string): number | undefined {
  const row = metrics.split('\n').find((line) => line.startsWith(`${series} `));
  return row === undefined ? undefined : Number(row.slice(series.length + 1));
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * WORKERS=2 (docs/operations.md#several-cores-workers): the built service as `npm start` runs it, a
 * primary process and two workers sharing one port, on a fresh database.
 */
describe('WORKERS: several worker processes behind one port', () => {
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

  async function environment(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    return {
      WORKERS: '2',
      DATABASE_URL: database.url,
      KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      ISSUER,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      ...extra,
    };
  }

  it('starts two workers that share the port and the migrated database, counts every request on METRICS_PORT, replaces a dead worker and exits 0 on SIGTERM', async () => {
    const env = await environment({ METRICS_PORT: String(await freePort()), SHUTDOWN_DRAIN_SECONDS: '1' });
    const service = new ServiceProcess(spawnService(env, ROOT, children));
    const primary = service.child.pid!;
    const url = `http://127.0.0.1:${env.PORT}`;
    const listening = () => service.pidsLogging(`Tollgate listening on 127.0.0.1:${env.PORT},`);
    await service.waitFor('two listening workers', () => listening().length === 2 && service.pidsLogging('All 2 workers listening').length === 1);
    expect(service.pidsLogging('All 2 workers listening')).toEqual([primary]);
    const workers = new Set(listening());
    expect(workers.size).toBe(2);
    expect(workers.has(primary)).toBe(false);
    // Both started on the empty database at once: the migrations ran once, under their lock.
    expect(service.pidsLogging('Applied migrations: ')).toHaveLength(1);
    const migrations = await query<{ count: number }>(database.url, 'SELECT count(*)::int AS count FROM migrations GROUP BY name');
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.every((row) => row.count === 1)).toBe(true);
    expect(await query(database.url, 'SELECT count(*)::int AS count FROM signing_keys')).toEqual([{ count: 1 }]);

    // Each request on a connection of its own: the cluster hands connections to the workers in turn.
    const form = { grant_type: 'client_credentials', scope: 'api1' };
    const responses = [];
    for (let batch = 0; batch < REQUESTS / 6; batch++) {
      responses.push(...(await Promise.all(Array.from({ length: 6 }, () => requestTokenFrom('127.0.0.1', url, 'm2m', 'm2m-secret', form)))));
    }
    expect(responses.map((response) => response.status)).toEqual(Array(REQUESTS).fill(200));
    const keys = createLocalJWKSet((await request(`${url}/.well-known/openid-configuration/jwks`)).body as JSONWebKeySet);
    for (const response of responses) {
      const { payload } = await jwtVerify(response.body.access_token, keys, { issuer: ISSUER });
      expect(payload).toMatchObject({ client_id: 'm2m', scope: 'api1' });
    }
    const answeredBy = service
      .lines()
      .filter((line) => line.msg === 'incoming request' && line.req?.path === '/connect/token')
      .map((line) => line.pid);
    expect(answeredBy).toHaveLength(REQUESTS);
    expect(new Set(answeredBy)).toEqual(workers);

    // METRICS_PORT is the primary's, with the sum of both workers' counts; the public port has none.
    // A worker counts a request once its response is sent, so possibly just after the client has it.
    let metrics = await request(`http://127.0.0.1:${env.METRICS_PORT}/metrics`);
    for (let attempt = 0; attempt < 20 && sample(metrics.body, SUCCESS) !== REQUESTS; attempt++) {
      await new Promise((wait) => setTimeout(wait, 100));
      metrics = await request(`http://127.0.0.1:${env.METRICS_PORT}/metrics`);
    }
    expect(metrics.status).toBe(200);
    expect(sample(metrics.body, SUCCESS)).toBe(REQUESTS);
    expect(sample(metrics.body, ISSUED)).toBe(REQUESTS);
    expect((await request(`${url}/metrics`)).status).toBe(404);

    const [killed, survivor] = [...workers];
    process.kill(killed, 'SIGKILL');
    await service.waitFor('a new worker', () => listening().length === 3);
    const replacement = listening()[2];
    expect([primary, killed, survivor]).not.toContain(replacement);
    expect(service.lines().find((line) => line.level === 40 && line.pid === primary)?.msg).toBe(
      `Worker ${killed} exited with signal SIGKILL; a new one starts in 1000 ms`,
    );
    for (let index = 0; index < 4; index++) expect((await requestTokenFrom('127.0.0.1', url, 'm2m', 'm2m-secret', form)).status).toBe(200);

    // As systemd stops a service, every process of its group at once: the survivor gets its own
    // SIGTERM and the primary's during its drain; the replacement only the primary's.
    const started = Date.now();
    process.kill(survivor, 'SIGTERM');
    service.child.kill('SIGTERM');
    const exit = await service.exited;
    expect({ code: exit.code, signal: exit.signal, stderr: exit.stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    // Within the drain and the 10 s grace (exit code 1 after that, above), plus a loaded machine's margin.
    expect(Date.now() - started).toBeLessThan(10_000 + LOAD_MARGIN_MS);
    expect(new Set(service.pidsLogging('SIGTERM received, shutting down'))).toEqual(new Set([survivor, replacement]));
    expect(service.lines().filter((line) => line.level >= 50)).toEqual([]);
  }, 180_000);

  /** The built service with two workers, once both listen; `listening()` names every worker that has listened so far. */
  async function startCluster(extra: Record<string, string> = {}) {
    const env = await environment({ METRICS_PORT: String(await freePort()), SHUTDOWN_DRAIN_SECONDS: '1', ...extra });
    const service = new ServiceProcess(spawnService(env, ROOT, children), 240_000);
    const listening = () => service.pidsLogging(`Tollgate listening on 127.0.0.1:${env.PORT},`);
    await service.waitFor('two listening workers', () => listening().length === 2, 60_000);
    const scrape = async () => (await request(`http://127.0.0.1:${env.METRICS_PORT}/metrics`)).body as string;
    const token = () => requestTokenFrom('127.0.0.1', `http://127.0.0.1:${env.PORT}`, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
    return { service, listening, scrape, token };
  }

  /** The primary's warnings about exits and restarts, in order. */
  const restartLines = (service: ServiceProcess) =>
    service
      .lines()
      .filter((line) => line.pid === service.child.pid && line.level === 40)
      .map((line) => line.msg);

  it('keeps replacing workers that keep dying, the wait doubling up to 30 s, and tells it in its log and on METRICS_PORT', async () => {
    const { service, listening, scrape, token } = await startCluster();
    expect(sample(await scrape(), 'tollgate_cluster_workers_listening')).toBe(2);
    expect(sample(await scrape(), 'tollgate_cluster_worker_restart_delay_seconds')).toBe(1);
    // Six deaths within a minute, both workers at a time: the sixth used to stop the service for good.
    for (let round = 1; round <= 3; round++) {
      const victims = listening().slice(-2);
      for (const pid of victims) process.kill(pid, 'SIGKILL');
      await service.waitFor(`round ${round} of exits`, () => restartLines(service).length === 2 * round);
      if (round < 3) await service.waitFor(`round ${round} of replacements`, () => listening().length === 2 + 2 * round, 60_000);
    }
    const waits = restartLines(service).map((message) => /a new one starts in (\d+) ms/.exec(message ?? '')?.[1]);
    expect(waits).toEqual(['1000', '2000', '4000', '8000', '16000', '30000']);
    expect(restartLines(service)[5]).toMatch(
      /^Worker \d+ exited with signal SIGKILL; a new one starts in 30000 ms \(restart 6 within a minute: the wait doubles each time, up to 30 s\)$/,
    );
    expect(service.exitedWith).toBeUndefined();
    const metrics = await scrape();
    expect(sample(metrics, 'tollgate_cluster_worker_restarts')).toBe(6);
    expect(sample(metrics, 'tollgate_cluster_worker_restart_delay_seconds')).toBe(30);

    // The first of the last two replacements serves again after its 16 s; the other is still waiting its 30 s.
    await service.waitFor('a worker serving again', () => listening().length === 7, 60_000);
    expect((await token()).status).toBe(200);
    expect(sample(await scrape(), 'tollgate_cluster_workers_listening')).toBe(1);

    service.child.kill('SIGTERM');
    const exit = await service.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(service.lines().filter((line) => line.level >= 50)).toEqual([]);
  }, 240_000);

  it('replaces a worker whose replacement cannot reach the database, until it can', async () => {
    const target = new URL(database.url);
    const proxy = new CuttableProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    try {
      target.host = `127.0.0.1:${proxy.port}`;
      const { service, listening, token } = await startCluster({ DATABASE_URL: target.toString() });
      proxy.sever();
      process.kill(listening()[0], 'SIGKILL');
      await service.waitFor(
        'a replacement that fails to start',
        () => restartLines(service).some((message) => /before it listened; a new one starts in/.test(message ?? '')),
        40_000,
      );
      expect(service.exitedWith).toBeUndefined();
      proxy.restore();
      await service.waitFor('the replacement serving', () => listening().length === 3, 60_000);
      // The survivor's pool may hold a connection cut with the database: it answers 503 until it notices.
      let answer = await token();
      for (const deadline = Date.now() + 10_000; answer.status === 503 && Date.now() < deadline; answer = await token()) {
        await new Promise((wait) => setTimeout(wait, 200));
      }
      expect(answer.status).toBe(200);
      service.child.kill('SIGTERM');
      expect((await service.exited).code).toBe(0);
    } finally {
      proxy.restore();
      await proxy.stop();
    }
  }, 240_000);

  it('stops when a worker fails to start, with its message and exit code 1', async () => {
    const missing = join(tmpdir(), `tollgate-missing-${process.pid}.js`);
    const { code, stdout, stderr } = await runToExit(spawnService(await environment({ TOLLGATE_EXTENSIONS: missing }), ROOT, children), 30_000);
    expect(code).toBe(1);
    expect(stderr).toContain(`TOLLGATE_EXTENSIONS: ${missing} does not exist`);
    expect(stdout).toMatch(/"context":"Cluster","msg":"Worker \d+ exited with code 1 before it listened: stopping"/);
  }, 60_000);

  it('refuses WORKERS=2 without DATABASE_URL: the embedded database serves one process', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'tollgate-workers-'));
    try {
      const env = { WORKERS: '2', DATA_DIR: directory, PORT: String(await freePort()) };
      const { code, stdout, stderr } = await runToExit(spawnService(env, directory, children), 30_000);
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr.trim()).toBe(
        'Invalid configuration: WORKERS must be 1 without DATABASE_URL: the embedded database serves one process (use a PostgreSQL server to run 2)',
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 60_000);
});
