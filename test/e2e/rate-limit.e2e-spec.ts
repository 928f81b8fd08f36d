import Redis from 'ioredis';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { requestToken } from '../support/http';

const clientCredentials = { grant_type: 'client_credentials', scope: 'api1' };

async function expectTooManyRequests(server: TestServer, clientId: string, secret: string): Promise<void> {
  const response = await requestToken(server.url, clientId, secret, clientCredentials);
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
}

describe('token endpoint rate limits, in memory', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_WINDOW_SECONDS: '86400', RATE_LIMIT_PER_CLIENT: '3', RATE_LIMIT_PER_ADDRESS: '100', RATE_LIMIT_AUTH_FAILURES: '2' });
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After once a client has used its budget', async () => {
    for (let i = 0; i < 3; i++) expect((await requestToken(server.url, 'm2m', 'm2m-secret', clientCredentials)).status).toBe(200);
    await expectTooManyRequests(server, 'm2m', 'm2m-secret');
  });

  it('stops checking secrets after a few failed authentications, even the right one', async () => {
    for (let i = 0; i < 2; i++) expect((await requestToken(server.url, 'api1', `guess-${i}`, clientCredentials)).status).toBe(401);
    await expectTooManyRequests(server, 'api1', 'api1-secret');
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)('token endpoint rate limits, shared through Redis', () => {
  let first: TestServer;
  let second: TestServer;
  const clientId = 'frontend';

  beforeAll(async () => {
    const redis = new Redis(redisUrl!, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const keys = await redis.keys('tollgate:rl:*');
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    const env = { REDIS_URL: redisUrl!, RATE_LIMIT_WINDOW_SECONDS: '86400', RATE_LIMIT_PER_CLIENT: '0', RATE_LIMIT_PER_ADDRESS: '1000', RATE_LIMIT_AUTH_FAILURES: '3' };
    first = await startTestServer(env);
    second = await startTestServer(env);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('counts failed authentications across instances', async () => {
    for (const server of [first, second, first]) {
      expect((await requestToken(server.url, clientId, 'wrong', clientCredentials)).status).toBe(401);
    }
    await expectTooManyRequests(second, clientId, 'frontend-secret');
  });
});
