import { CuttableProxy } from '../support/cuttable-proxy';
import { startTestServer, testDatabaseUrl, type TestServer } from '../support/create-test-app';
import { request, requestToken } from '../support/http';

const passwordGrant = { grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid api1' };

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await condition()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

describe('database outage', () => {
  let proxy: CuttableProxy;
  let server: TestServer;

  beforeAll(async () => {
    const database = new URL(testDatabaseUrl());
    proxy = new CuttableProxy(database.hostname, Number(database.port || 5432));
    await proxy.start();
    database.host = `127.0.0.1:${proxy.port}`;
    server = await startTestServer({ DATABASE_URL: database.toString(), CACHE_TTL_SECONDS: '1' });
  });
  afterAll(async () => {
    proxy.restore();
    await server.close();
    await proxy.stop();
  });

  it('answers 503 temporarily_unavailable with Retry-After within a bounded time, reports not ready, and recovers by itself', async () => {
    expect((await requestToken(server.url, 'frontend', 'frontend-secret', passwordGrant)).status).toBe(200);

    proxy.sever();
    const started = Date.now();
    const duringOutage = await requestToken(server.url, 'frontend', 'frontend-secret', passwordGrant);
    const answeredInMs = Date.now() - started;
    expect(duringOutage.status).toBe(503);
    expect(duringOutage.headers.get('retry-after')).toBe('5');
    expect(duringOutage.headers.get('cache-control')).toBe('no-store');
    expect(duringOutage.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    expect(duringOutage.body.access_token).toBeUndefined();
    expect(answeredInMs).toBeLessThan(10_000);

    expect((await request(`${server.url}/health/live`)).status).toBe(200);
    const ready = await request(`${server.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'error', error: { database: { status: 'down' } } });

    proxy.restore();
    const recoveredInMs = await waitFor(async () => (await requestToken(server.url, 'frontend', 'frontend-secret', passwordGrant)).status === 200, 20_000);
    expect((await request(`${server.url}/health/ready`)).status).toBe(200);
    console.log(`database outage: 503 after ${answeredInMs} ms; recovered ${recoveredInMs} ms after the database returned`);
  });
});
