import { Client } from 'pg';
import { NestPinoLogger } from '../../src/platform/logging/nest-pino.logger';
import { CuttableProxy } from '../support/cuttable-proxy';
import { sql, startTestServer, testDatabaseUrl, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, insertUser, uniqueName } from '../support/fixtures';
import { request, requestToken, type HttpResponse } from '../support/http';
import { revoke, type ClientCredentials } from '../support/token-lifecycle';

/** A test server that reaches the run's database through a proxy the test can cut or freeze. */
async function serverBehindProxy(env: Record<string, string> = {}): Promise<{ proxy: CuttableProxy; server: TestServer }> {
  const database = new URL(testDatabaseUrl());
  const proxy = new CuttableProxy(database.hostname, Number(database.port || 5432));
  await proxy.start();
  database.host = `127.0.0.1:${proxy.port}`;
  return { proxy, server: await startTestServer({ DATABASE_URL: database.toString(), ...env }) };
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return Date.now() - started;
}

describe('a database that stops answering (frozen, or a network black hole)', () => {
  let proxy: CuttableProxy;
  let server: TestServer;
  const passwordGrant = { grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid api1' };

  // The grant's own bound (GRANT_TIMEOUT_SECONDS, 10 s by default) would answer before the 12 s query timeout.
  beforeAll(async () => ({ proxy, server } = await serverBehindProxy({ CACHE_TTL_SECONDS: '1', GRANT_TIMEOUT_SECONDS: '30' })));
  afterAll(async () => {
    proxy.restore();
    await server.close();
    await proxy.stop();
  });

  it('answers 503 temporarily_unavailable with Retry-After within the timeouts, logs the outage once each way, and recovers', async () => {
    expect((await requestToken(server.url, 'frontend', 'frontend-secret', passwordGrant)).status).toBe(200);
    const errors = jest.spyOn(NestPinoLogger.prototype, 'error');
    const infos = jest.spyOn(NestPinoLogger.prototype, 'log');
    try {
      proxy.freeze();
      const started = Date.now();
      const responses = await Promise.all(Array.from({ length: 6 }, () => requestToken(server.url, 'frontend', 'frontend-secret', passwordGrant)));
      const answeredInMs = Date.now() - started;
      for (const response of responses) {
        expect({ status: response.status, body: response.body }).toEqual({
          status: 503,
          body: { error: 'temporarily_unavailable', error_description: expect.any(String) },
        });
        expect(response.headers.get('retry-after')).toBe('5');
      }
      // The pool's connection timeout (3 s) and the client-side query timeout (12 s), plus margin.
      expect(answeredInMs).toBeLessThan(15_000);
      expect((await request(`${server.url}/health/live`)).status).toBe(200);

      proxy.restore();
      const recoveredInMs = await eventually(async () => (await requestToken(server.url, 'frontend', 'frontend-secret', passwordGrant)).status === 200, 20_000);
      await eventually(async () => infos.mock.calls.some(([message]) => /Database available again/.test(String(message))), 15_000);

      const messages = errors.mock.calls.map(([message]) => String(message));
      expect(messages.filter((message) => /Database unavailable/.test(message))).toHaveLength(1);
      // No stack trace or fault line per refused request.
      expect(messages.filter((message) => /server_error|temporarily_unavailable:|query failed/.test(message))).toEqual([]);
      expect(infos.mock.calls.filter(([message]) => /Database available again/.test(String(message)))).toHaveLength(1);
      console.log(`frozen database: 6 requests answered 503 within ${answeredInMs} ms; recovered ${recoveredInMs} ms after it returned`);
    } finally {
      errors.mockRestore();
      infos.mockRestore();
    }
  }, 60_000);
});

describe('a refresh interrupted by a cut database', () => {
  let proxy: CuttableProxy;
  let server: TestServer;
  const client: ClientCredentials = { clientId: uniqueName('interrupted'), secret: 'interrupted-secret' };
  const trigger = `slow_${client.clientId.replace(/\W/g, '_')}`;

  beforeAll(async () => {
    ({ proxy, server } = await serverBehindProxy());
    await insertClient({
      clientId: client.clientId,
      grantTypes: ['password', 'refresh_token'],
      scopes: ['openid', 'api1', 'offline_access'],
      secrets: [{ secret: client.secret }],
    });
    await insertUser({ username: client.clientId, password: 'pw' });
  });
  afterAll(async () => {
    await sql(`DROP TRIGGER IF EXISTS ${trigger} ON refresh_tokens`);
    await sql(`DROP FUNCTION IF EXISTS ${trigger}()`);
    proxy.restore();
    await server.close();
    await proxy.stop();
  });

  const refresh = (handle: string) => requestToken(server.url, client.clientId, client.secret, { grant_type: 'refresh_token', refresh_token: handle });

  it('changes nothing: the retry with the same token succeeds and the family stays intact', async () => {
    const first = await requestToken(server.url, client.clientId, client.secret, {
      grant_type: 'password',
      username: client.clientId,
      password: 'pw',
      scope: 'openid api1 offline_access',
    });
    expect(first.status).toBe(200);
    // Storing this client's next refresh token waits: the database is cut while the old one is
    // already used up by the same request and its successor is being written (seen in pg_stat_activity).
    await sql(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.client_id = '${client.clientId}' THEN PERFORM pg_sleep(5); END IF; RETURN NEW; END $$`);
    await sql(`CREATE TRIGGER ${trigger} BEFORE INSERT ON refresh_tokens FOR EACH ROW EXECUTE FUNCTION ${trigger}()`);
    const interrupted = refresh(first.body.refresh_token);
    const writing = "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep' AND query ILIKE '%refresh_tokens%'";
    await eventually(async () => (await sql(writing)).length > 0, 30_000);
    proxy.sever();
    expectTokenError(await interrupted, 503, 'temporarily_unavailable');
    await sql(`DROP TRIGGER ${trigger} ON refresh_tokens`);
    proxy.restore();

    // The pool notices the cut on its next use: retry while the answer is still 503.
    let retried = await refresh(first.body.refresh_token);
    for (const deadline = Date.now() + 10_000; retried.status === 503 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      retried = await refresh(first.body.refresh_token);
    }
    expect(retried.status).toBe(200);
    expect((await refresh(retried.body.refresh_token)).status).toBe(200);
    const [row] = await sql<{ revoked: number; consumed: number }>(
      `SELECT count(revoked_at)::int AS revoked, count(consumed_at)::int AS consumed FROM refresh_tokens WHERE client_id = $1`,
      [client.clientId],
    );
    expect(row).toEqual({ revoked: 0, consumed: 2 });
  }, 60_000);
});

describe('revocations during a database outage', () => {
  let proxy: CuttableProxy;
  let other: TestServer;
  let server: TestServer;

  beforeAll(async () => {
    // Clients are served from memory for an hour here, so delegation works without the database.
    ({ proxy, server } = await serverBehindProxy({ CACHE_TTL_SECONDS: '3600' }));
    other = await startTestServer();
  });
  afterAll(async () => {
    proxy.restore();
    await Promise.all([server.close(), other.close()]);
    await proxy.stop();
  });

  const delegate = (token: string) => requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token, scope: 'api2' });
  const userToken = async () =>
    (await requestToken(other.url, 'frontend', 'frontend-secret', { grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid api1' })).body
      .access_token as string;

  it('keeps refusing a token revoked on another instance before the outage', async () => {
    const revoked = await userToken();
    const kept = await userToken();
    expect((await delegate(kept)).status).toBe(200);
    expect((await revoke(other.url, { clientId: 'frontend', secret: 'frontend-secret' }, { token: revoked })).status).toBe(200);
    // Read from the shared table within about a second (docs/endpoints.md#revocation).
    await eventually(async () => (await delegate(revoked)).status === 400, 5_000);

    proxy.sever();
    // Served from memory during the outage: the deny list read last is kept.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expectTokenError(await delegate(revoked), 400, 'invalid_grant');
    expect((await delegate(kept)).status).toBe(200);
    proxy.restore();
  }, 60_000);
});

/**
 * What PostgreSQL itself does in an outage, on a server reaching it directly, every lookup from the
 * database (CACHE_TTL_SECONDS=0): statements cancelled by statement_timeout, backends terminated
 * (pg_terminate_backend), connections refused (ALLOW_CONNECTIONS false). Each is 503
 * temporarily_unavailable with Retry-After on every endpoint, a 503 page on the authorization
 * endpoint's, and one log line when the outage starts and one when it ends.
 */
describe('PostgreSQL cancelling, terminating and refusing', () => {
  let server: TestServer;
  let accessToken: string;
  const database = new URL(testDatabaseUrl()).pathname.slice(1);
  const passwordGrant = { grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid api1' };

  beforeAll(async () => {
    server = await startTestServer({ CACHE_TTL_SECONDS: '0' });
    accessToken = (await requestToken(server.url, 'frontend', 'frontend-secret', passwordGrant)).body.access_token as string;
  });
  afterAll(async () => {
    await sqlOn(adminUrl(), `ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
    await server.close();
  });

  const token = () => requestToken(server.url, 'frontend', 'frontend-secret', passwordGrant);
  const userinfo = () => request(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  const authorizationPage = () =>
    request(
      `${server.url}/connect/authorize?${new URLSearchParams({
        client_id: 'spa',
        redirect_uri: 'http://127.0.0.1:5173/callback',
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'c'.repeat(43),
        code_challenge_method: 'S256',
      })}`,
    );

  /** Token, UserInfo and the authorization page at once. */
  const askEach = () => Promise.all([token(), userinfo(), authorizationPage()]);

  /** 503 temporarily_unavailable with Retry-After: JSON at the token and UserInfo endpoints, a page at the authorization endpoint. */
  function expectEachUnavailable([tokenResponse, userinfoResponse, page]: HttpResponse[]): void {
    for (const response of [tokenResponse, userinfoResponse]) {
      expect({ status: response.status, retryAfter: response.headers.get('retry-after'), body: response.body }).toEqual({
        status: 503,
        retryAfter: '5',
        body: { error: 'temporarily_unavailable', error_description: expect.any(String) },
      });
    }
    expect({ status: page.status, type: page.headers.get('content-type'), retryAfter: page.headers.get('retry-after') }).toEqual({
      status: 503,
      type: 'text/html; charset=utf-8',
      retryAfter: '5',
    });
    expect(page.body).toContain('temporarily unavailable');
  }

  /** Runs `outage`, waits for the service to serve again, and expects one log line when it started and one when it ended. */
  async function expectOneOutageLogged(outage: () => Promise<void>): Promise<void> {
    const errors = jest.spyOn(NestPinoLogger.prototype, 'error');
    const infos = jest.spyOn(NestPinoLogger.prototype, 'log');
    try {
      await outage();
      await eventually(async () => (await token()).status === 200, 20_000);
      await eventually(async () => infos.mock.calls.some(([message]) => /Database available again/.test(String(message))), 15_000);
      const logged = (spy: typeof errors) => spy.mock.calls.map(([message]) => String(message));
      expect(logged(errors).filter((message) => /Database unavailable/.test(message))).toHaveLength(1);
      expect(logged(errors).filter((message) => /server_error|query failed/.test(message))).toEqual([]);
      expect(logged(infos).filter((message) => /Database available again/.test(message))).toHaveLength(1);
    } finally {
      errors.mockRestore();
      infos.mockRestore();
    }
  }

  /** Runs `during` while `clients` and `users` are locked, as a long migration or a stuck transaction would hold them. */
  async function whileLocked(during: (lockHolder: number) => Promise<void>): Promise<void> {
    const locker = new Client({ connectionString: testDatabaseUrl() });
    await locker.connect();
    try {
      await locker.query('BEGIN; LOCK TABLE clients, users IN ACCESS EXCLUSIVE MODE');
      await during((await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    } finally {
      await locker.query('ROLLBACK').finally(() => locker.end());
    }
  }

  it('a statement cancelled by statement_timeout (10 s), across requests that arrive over several seconds', async () => {
    await expectOneOutageLogged(() =>
      whileLocked(async () => {
        // Two waves 2 s apart: their timeouts end 2 s apart too, and still make one outage.
        const first = askEach();
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const second = askEach();
        expectEachUnavailable(await first);
        expectEachUnavailable(await second);
      }),
    );
  }, 60_000);

  it('backends terminated in the middle of their statements (pg_terminate_backend)', async () => {
    await expectOneOutageLogged(() =>
      whileLocked(async (lockHolder) => {
        const waiting = askEach();
        await eventually(async () => (await waitingBackends(lockHolder)) >= 3, 5_000);
        await sqlOn(
          testDatabaseUrl(),
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), ${lockHolder})`,
        );
        expectEachUnavailable(await waiting);
      }),
    );
  }, 60_000);

  it('a database refusing connections (ALLOW_CONNECTIONS false)', async () => {
    await expectOneOutageLogged(async () => {
      await sqlOn(adminUrl(), `ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
      try {
        await sqlOn(adminUrl(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
        expectEachUnavailable([await token(), await userinfo(), await authorizationPage()]);
      } finally {
        await sqlOn(adminUrl(), `ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
      }
    });
  }, 60_000);
});

/** The server's maintenance database: where a database of the run can be altered from. */
function adminUrl(): string {
  const url = new URL(testDatabaseUrl());
  url.pathname = '/postgres';
  return url.toString();
}

async function sqlOn(url: string, text: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Backends of the run's database waiting for the lock that `lockHolder` holds. */
async function waitingBackends(lockHolder: number): Promise<number> {
  const rows = await sql<{ count: number }>(`SELECT count(*)::int AS count FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [lockHolder]);
  return rows[0].count;
}
