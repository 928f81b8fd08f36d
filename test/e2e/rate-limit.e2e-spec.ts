import { RecordingAuditSink } from '../../src/platform/audit/recording-audit.sink';
import { MetricsListener } from '../../src/platform/metrics/metrics.listener';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { insertUser, uniqueName } from '../support/fixtures';
import { basic, postFormFrom, request, requestToken, requestTokenFrom, type HttpResponse } from '../support/http';
import { spawnRedis, type SpawnedRedis } from '../support/redis-server';
import { eventually, LOAD_MARGIN_MS } from '../support/token-lifecycle';

// Callers at different client addresses: every 127.x.y.z reaches the server on 127.0.0.1.
const clientCredentials = { grant_type: 'client_credentials', scope: 'api1' };
/** The service's own defaults for throttling (the test servers turn it off unless told otherwise). */
const DEFAULT_THROTTLING = {
  RATE_LIMIT_AUTH_FAILURES: '',
  RATE_LIMIT_ANONYMOUS_AUTH_FAILURES: '',
  SIGN_IN_FAILURES_BEFORE_BACKOFF: '',
  SIGN_IN_ADDRESS_FAILURES: '',
};
const WRONG_PASSWORD = { error: 'invalid_grant', error_description: 'the username or password is incorrect, or the user is disabled' };

function expectTooManyRequests(response: HttpResponse): void {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
}

const m2mFrom = (server: TestServer, address: string, secret = 'm2m-secret', headers: Record<string, string> = {}) =>
  requestTokenFrom(address, server.url, 'm2m', secret, clientCredentials, headers);
const signIn = (server: TestServer, address: string, username: string, password: string, headers: Record<string, string> = {}) =>
  requestTokenFrom(address, server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username, password, scope: 'api1' }, headers);
const anonymousFrom = (server: TestServer, address: string) => postFormFrom(address, `${server.url}/connect/token`, clientCredentials);

async function inSequence(count: number, send: (i: number) => Promise<HttpResponse>): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await send(i)).status);
  return result;
}

describe('client authentication throttling, default budgets', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(DEFAULT_THROTTLING);
  });
  afterAll(() => server.close());

  it("lets an attacker's 25 wrong secrets for m2m block only m2m from the attacker's address", async () => {
    const attempts = await inSequence(25, (i) => m2mFrom(server, '127.0.0.2', `guess-${i}`));
    expect(attempts).toEqual([...Array(20).fill(401), ...Array(5).fill(429)]);
    expectTooManyRequests(await m2mFrom(server, '127.0.0.2'));
    expect((await m2mFrom(server, '127.0.0.3')).status).toBe(200);
    expect((await signIn(server, '127.0.0.2', 'alice', 'alice')).status).toBe(200);
  });

  it('never lets requests without credentials from one address stop a correctly authenticated client', async () => {
    const attempts = await inSequence(110, () => anonymousFrom(server, '127.0.0.4'));
    expect(attempts).toEqual([...Array(100).fill(401), ...Array(10).fill(429)]);
    expectTooManyRequests(await anonymousFrom(server, '127.0.0.4'));
    expect((await m2mFrom(server, '127.0.0.5')).status).toBe(200);
    expect((await anonymousFrom(server, '127.0.0.5')).status).toBe(401);
    // A request that names a client is judged by its own (address, client) pair alone.
    expect((await m2mFrom(server, '127.0.0.4')).status).toBe(200);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const attempts = await inSequence(20, (i) => m2mFrom(server, '127.0.0.6', `guess-${i}`, { 'x-forwarded-for': `203.0.113.${i}` }));
    expect(attempts).toEqual(Array(20).fill(401));
    expectTooManyRequests(await m2mFrom(server, '127.0.0.6', 'm2m-secret', { 'x-forwarded-for': '203.0.113.200' }));
    expect((await m2mFrom(server, '127.0.0.7', 'm2m-secret', { 'x-forwarded-for': '127.0.0.6' })).status).toBe(200);
  });

  it('holds back only anonymous requests at introspection and revocation too', async () => {
    const introspectFrom = (address: string, headers: Record<string, string> = {}) =>
      postFormFrom(address, `${server.url}/connect/introspect`, { token: 'not-a-token' }, headers);
    const attempts = await inSequence(105, () => introspectFrom('127.0.0.30'));
    expect(attempts.slice(0, 100)).toEqual(Array(100).fill(401));
    expect(attempts.slice(100)).toEqual(Array(5).fill(429));
    expectTooManyRequests(await postFormFrom('127.0.0.30', `${server.url}/connect/revocation`, { token: 'not-a-token' }));
    const api1 = { authorization: basic('api1', 'api1-secret') };
    expect((await introspectFrom('127.0.0.30', api1)).body).toEqual({ active: false });
    expect((await postFormFrom('127.0.0.31', `${server.url}/connect/revocation`, { token: 'not-a-token' }, api1)).status).toBe(200);
  });

  it('puts no quota on successful requests: 3,000 client_credentials requests from one client all succeed', async () => {
    const counts = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < 3000) {
        next++;
        const { status } = await requestToken(server.url, 'm2m', 'm2m-secret', clientCredentials);
        counts.set(status, (counts.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(Object.fromEntries(counts)).toEqual({ 200: 3000 });
    // Seconds on a quiet machine; over two minutes were seen at a load of 20 on two cores.
  }, 300_000);
});

describe('client authentication throttling behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Long windows and back-offs: on a loaded machine the flood below may outlast the default ones.
    server = await startTestServer({
      ...DEFAULT_THROTTLING,
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_MEMORY_KEYS: '200',
      RATE_LIMIT_WINDOW_SECONDS: '3600',
      SIGN_IN_BACKOFF_SECONDS: '3600',
    });
  });
  afterAll(() => server.close());

  it('counts the forwarded address, not the proxy', async () => {
    const forwardedFor = (address: string) => ({ 'x-forwarded-for': address });
    const attempts = await inSequence(20, (i) => m2mFrom(server, '127.0.0.1', `guess-${i}`, forwardedFor('198.51.100.7')));
    expect(attempts).toEqual(Array(20).fill(401));
    expectTooManyRequests(await m2mFrom(server, '127.0.0.1', 'm2m-secret', forwardedFor('198.51.100.7')));
    expect((await m2mFrom(server, '127.0.0.1', 'm2m-secret', forwardedFor('198.51.100.8'))).status).toBe(200);
  });

  it('still ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    await inSequence(20, (i) => m2mFrom(server, '127.0.0.8', `guess-${i}`, { 'x-forwarded-for': `203.0.113.${i}` }));
    expectTooManyRequests(await m2mFrom(server, '127.0.0.8', 'm2m-secret', { 'x-forwarded-for': '203.0.113.99' }));
  });

  it('keeps a lockout and a sign-in back-off while requests from thousands of other addresses pass through', async () => {
    const victim = { 'x-forwarded-for': '198.51.100.66' };
    await inSequence(20, (i) => m2mFrom(server, '127.0.0.1', `guess-${i}`, victim));
    await inSequence(5, (i) => signIn(server, '127.0.0.1', 'alice', `guess-${i}`, victim));
    expectTooManyRequests(await m2mFrom(server, '127.0.0.1', 'm2m-secret', victim));
    // 1,000 failures from distinct addresses: five times the 200 ordinary counters this server keeps.
    let next = 0;
    const worker = async () => {
      while (next < 1000) {
        const i = next++;
        await m2mFrom(server, '127.0.0.1', 'wrong', { 'x-forwarded-for': `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}` });
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expectTooManyRequests(await m2mFrom(server, '127.0.0.1', 'm2m-secret', victim));
    const signedIn = await signIn(server, '127.0.0.1', 'alice', 'alice', victim);
    expect({ status: signedIn.status, body: signedIn.body }).toEqual({ status: 400, body: WRONG_PASSWORD });
  }, 120_000);
});

describe('client address behind a trusted proxy given as a hop count (TRUST_PROXY=1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...DEFAULT_THROTTLING, TRUST_PROXY: '1' });
  });
  afterAll(() => server.close());

  it('counts the address the one proxy forwarded', async () => {
    const forwardedFor = (address: string) => ({ 'x-forwarded-for': `192.0.2.1, ${address}` });
    const attempts = await inSequence(20, (i) => m2mFrom(server, '127.0.0.40', `guess-${i}`, forwardedFor('198.51.100.40')));
    expect(attempts).toEqual(Array(20).fill(401));
    expectTooManyRequests(await m2mFrom(server, '127.0.0.41', 'm2m-secret', forwardedFor('198.51.100.40')));
    expect((await m2mFrom(server, '127.0.0.40', 'm2m-secret', forwardedFor('198.51.100.41'))).status).toBe(200);
  });
});

describe('user sign-in back-off (password grant), shortened: 2 failures, 1 s doubling to 2 s', () => {
  let server: TestServer;
  const audit = new RecordingAuditSink();
  beforeAll(async () => {
    server = await startTestServer(
      { SIGN_IN_FAILURES_BEFORE_BACKOFF: '2', SIGN_IN_BACKOFF_SECONDS: '1', SIGN_IN_MAX_BACKOFF_SECONDS: '2', SIGN_IN_ADDRESS_FAILURES: '5' },
      { auditSink: audit },
    );
  });
  afterAll(() => server.close());
  const expectWrongPassword = (response: HttpResponse) =>
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: WRONG_PASSWORD });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('answers a back-off exactly like a wrong password, doubles it, and resets it on success', async () => {
    expectWrongPassword(await signIn(server, '127.0.0.9', 'bob', 'guess-1'));
    expectWrongPassword(await signIn(server, '127.0.0.9', 'bob', 'guess-2'));
    expectWrongPassword(await signIn(server, '127.0.0.9', 'bob', 'bob'));
    expect((await signIn(server, '127.0.0.10', 'bob', 'bob')).status).toBe(200);

    await sleep(1100);
    expectWrongPassword(await signIn(server, '127.0.0.9', 'bob', 'guess-3'));
    await sleep(1100);
    // The third failure doubled the back-off to 2 s.
    expectWrongPassword(await signIn(server, '127.0.0.9', 'bob', 'bob'));
    await sleep(1000);
    expect((await signIn(server, '127.0.0.9', 'bob', 'bob')).status).toBe(200);
    // The success forgot the failures: one more is below the threshold again.
    expectWrongPassword(await signIn(server, '127.0.0.9', 'bob', 'guess-4'));
    expect((await signIn(server, '127.0.0.9', 'bob', 'bob')).status).toBe(200);
  }, 30_000);

  it('puts an address in back-off after failures across many usernames', async () => {
    for (let i = 0; i < 5; i++) expectWrongPassword(await signIn(server, '127.0.0.11', `nobody-${i}`, 'guess'));
    expectWrongPassword(await signIn(server, '127.0.0.11', 'alice', 'alice'));
    expect((await signIn(server, '127.0.0.12', 'alice', 'alice')).status).toBe(200);
  });

  it('audits a failed sign-in with the attempted username, never the password', async () => {
    const username = `someone-${'x'.repeat(400)}`;
    expectWrongPassword(await signIn(server, '127.0.0.13', username, 'a-password-guess'));
    expect(audit.events).toContainEqual({
      name: 'user.sign_in_failed',
      username: username.slice(0, 256),
      clientId: 'frontend',
      address: '127.0.0.13',
      reason: 'invalid_credentials',
    });
    expect(audit.events).toContainEqual({ name: 'user.sign_in_failed', username: 'bob', clientId: 'frontend', address: '127.0.0.9', reason: 'back_off' });
    expect(JSON.stringify(audit.events)).not.toMatch(/a-password-guess|guess-\d/);
  });
});

/** Passwords of `username` that were checked: the wrong ones audited as such, and the sign-ins that succeeded. */
function passwordsChecked(audit: RecordingAuditSink, username: string, answers: readonly HttpResponse[]): number {
  const wrong = audit.events.filter((event) => event.name === 'user.sign_in_failed' && event.username === username && event.reason === 'invalid_credentials');
  return wrong.length + answers.filter((answer) => answer.status === 200).length;
}

/** 19 wrong passwords and the right one, sent at once. */
const BURST = [...Array.from({ length: 19 }, (_, i) => `guess-${i}`), 'right'];

describe('sign-in back-off under a burst sent at once, default budgets (5 per username and address, 50 per address)', () => {
  let server: TestServer;
  const audit = new RecordingAuditSink();
  beforeAll(async () => {
    server = await startTestServer(DEFAULT_THROTTLING, { auditSink: audit });
  });
  afterAll(() => server.close());

  it('checks at most 5 of 20 passwords for one username sent together, and answers the others like a wrong password', async () => {
    const username = uniqueName('burst');
    await insertUser({ username, password: 'right' });
    const answers = await Promise.all(BURST.map((password) => signIn(server, '127.0.0.30', username, password)));
    expect(passwordsChecked(audit, username, answers)).toBeLessThanOrEqual(5);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map(({ status, body }) => ({ status, body }))).toEqual(Array(refused.length).fill({ status: 400, body: WRONG_PASSWORD }));
    // Counted per (username, address): the same user from another address is not held back.
    expect((await signIn(server, '127.0.0.31', username, 'right')).status).toBe(200);
  });

  it('checks at most 50 of 80 wrong passwords for 80 usernames sent together from one address', async () => {
    const prefix = uniqueName('spray');
    const answers = await Promise.all(Array.from({ length: 80 }, (_, i) => signIn(server, '127.0.0.32', `${prefix}-${i}`, 'guess')));
    expect(answers.map(({ status, body }) => ({ status, body }))).toEqual(Array(80).fill({ status: 400, body: WRONG_PASSWORD }));
    const checked = audit.events.filter(
      (event) => event.name === 'user.sign_in_failed' && event.username.startsWith(prefix) && event.reason === 'invalid_credentials',
    );
    expect(checked.length).toBeLessThanOrEqual(50);
    expect(checked.length).toBeGreaterThan(0);
    expect((await signIn(server, '127.0.0.33', 'alice', 'alice')).status).toBe(200);
  });
});

describe('sign-in back-off shared through Redis, under a burst sent at once to two instances', () => {
  let redis: SpawnedRedis;
  const servers: TestServer[] = [];
  const audit = new RecordingAuditSink();
  beforeAll(async () => {
    redis = await spawnRedis();
    const env = { ...DEFAULT_THROTTLING, REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '2000' };
    for (let i = 0; i < 2; i++) servers.push(await startTestServer(env, { auditSink: audit }));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await redis?.stop();
  });

  it('checks at most 5 of 20 passwords for one username, whichever instance each reaches', async () => {
    const username = uniqueName('shared-burst');
    await insertUser({ username, password: 'right' });
    const answers = await Promise.all(BURST.map((password, i) => signIn(servers[i % 2], '127.0.0.34', username, password)));
    expect(passwordsChecked(audit, username, answers)).toBeLessThanOrEqual(5);
    expect(answers.filter((answer) => answer.status !== 200).every((answer) => answer.status === 400)).toBe(true);
  });
});

describe('quotas on successful requests, when an operator turns them on', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      RATE_LIMIT_WINDOW_SECONDS: '86400',
      RATE_LIMIT_PER_CLIENT: '3',
      RATE_LIMIT_PER_ADDRESS: '100',
      RATE_LIMIT_AUTH_FAILURES: '2',
    });
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After once a client has used its budget', async () => {
    for (let i = 0; i < 3; i++) expect((await requestToken(server.url, 'm2m', 'm2m-secret', clientCredentials)).status).toBe(200);
    expectTooManyRequests(await requestToken(server.url, 'm2m', 'm2m-secret', clientCredentials));
  });

  it('stops checking secrets after a few failed authentications, even the right one', async () => {
    for (let i = 0; i < 2; i++) expect((await requestToken(server.url, 'api1', `guess-${i}`, clientCredentials)).status).toBe(401);
    expectTooManyRequests(await requestToken(server.url, 'api1', 'api1-secret', clientCredentials));
  });
});

describe('throttling shared through Redis, failing open to memory', () => {
  let redis: SpawnedRedis;
  let first: TestServer;
  let second: TestServer;

  const metric = async (server: TestServer, name: string) => {
    const text = (await request(`http://127.0.0.1:${server.app.get(MetricsListener).port()}/metrics`)).body as string;
    const line = text.split('\n').find((row) => row.startsWith(`${name} `));
    return line ? Number(line.slice(name.length + 1)) : undefined;
  };
  const timed = async (send: () => Promise<HttpResponse>) => {
    const started = Date.now();
    const response = await send();
    return { status: response.status, ms: Date.now() - started };
  };

  beforeAll(async () => {
    redis = await spawnRedis();
    // 500 ms rather than the default 100 ms: a loaded test machine must not look like a Redis outage.
    const env = { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '500', RATE_LIMIT_WINDOW_SECONDS: '86400', RATE_LIMIT_AUTH_FAILURES: '3', METRICS_PORT: '0' };
    first = await startTestServer(env);
    second = await startTestServer(env);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await redis?.stop();
  });

  it('counts failed authentications across instances', async () => {
    for (const server of [first, second, first]) expect((await m2mFrom(server, '127.0.0.20', 'wrong')).status).toBe(401);
    expectTooManyRequests(await m2mFrom(second, '127.0.0.20'));
    expect(await metric(first, 'tollgate_throttle_redis_in_use')).toBe(1);
  });

  it('keeps serving and throttling in memory while Redis hangs, and shares again once it answers', async () => {
    redis.freeze();
    try {
      const during = [];
      for (let i = 0; i < 3; i++) during.push(await timed(() => m2mFrom(first, '127.0.0.21', 'wrong')));
      expect(during.map(({ status }) => status)).toEqual([401, 401, 401]);
      // The first request waits for the Redis timeout (500 ms; plus a loaded machine's margin) at most, never hangs;
      // the next ones do not ask Redis at all: one fallback (below).
      expect(Math.max(...during.map(({ ms }) => ms))).toBeLessThan(500 + LOAD_MARGIN_MS);
      expectTooManyRequests(await m2mFrom(first, '127.0.0.21'));
      expect((await m2mFrom(first, '127.0.0.22')).status).toBe(200);
      expect(await metric(first, 'tollgate_throttle_redis_fallbacks_total')).toBe(1);
      expect(await metric(first, 'tollgate_throttle_redis_in_use')).toBe(0);
    } finally {
      redis.thaw();
    }
    await eventually(async () => (await metric(first, 'tollgate_throttle_redis_in_use')) === 1, 10_000);
    for (const server of [first, second, first]) expect((await m2mFrom(server, '127.0.0.23', 'wrong')).status).toBe(401);
    expectTooManyRequests(await m2mFrom(second, '127.0.0.23'));
  });

  it('keeps serving while Redis is down, and resumes by itself when it is back', async () => {
    await redis.stop();
    expect((await m2mFrom(first, '127.0.0.24')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await m2mFrom(first, '127.0.0.24', 'wrong')).status).toBe(401);
    expectTooManyRequests(await m2mFrom(first, '127.0.0.24'));
    expect(await metric(first, 'tollgate_throttle_redis_fallbacks_total')).toBe(2);
    await redis.start();
    await eventually(async () => (await metric(first, 'tollgate_throttle_redis_in_use')) === 1, 10_000);
    // The second instance finds out on its next request (and falls back until it reconnects).
    expect((await m2mFrom(second, '127.0.0.26')).status).toBe(200);
    await eventually(async () => (await metric(second, 'tollgate_throttle_redis_in_use')) === 1, 10_000);
    for (const server of [first, second, first]) expect((await m2mFrom(server, '127.0.0.25', 'wrong')).status).toBe(401);
    expectTooManyRequests(await m2mFrom(second, '127.0.0.25'));
  }, 120_000);
});
