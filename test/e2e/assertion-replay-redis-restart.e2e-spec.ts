import { randomUUID } from 'node:crypto';
import { PostgresAssertionReplayGuard } from '../../src/identity/client-auth/persistence/postgres-assertion-replay.guard';
import { clientAssertion, JWT_BEARER } from '../support/client-assertions';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError } from '../support/fixtures';
import { postForm, type HttpResponse } from '../support/http';
import { spawnRedis, type SpawnedRedis } from '../support/redis-server';
import { eventually } from '../support/token-lifecycle';

const grant = { grant_type: 'client_credentials', scope: 'api1' };

/**
 * docs/client-authentication.md: a private_key_jwt assertion's `jti` is refused a second time until
 * the assertion expires, even when Redis (REDIS_URL, without persistence) restarted in between and
 * lost its keys, or is down: PostgreSQL keeps the record of every used `jti`.
 */
describe('private_key_jwt jti replay across a Redis restart', () => {
  let redis: SpawnedRedis;
  let a: TestServer;
  let b: TestServer;
  const token = (server: TestServer, assertion: string): Promise<HttpResponse> =>
    postForm(`${server.url}/connect/token`, { ...grant, client_assertion_type: JWT_BEARER, client_assertion: assertion });

  beforeAll(async () => {
    redis = await spawnRedis();
    [a, b] = await Promise.all([startTestServer({ REDIS_URL: redis.url }), startTestServer({ REDIS_URL: redis.url })]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it('refuses a jti used before Redis restarted, on both instances', async () => {
    const used = await clientAssertion('batch');
    expect((await token(a, used)).status).toBe(200);
    expectTokenError(await token(b, used), 401, 'invalid_client');

    await redis.stop();
    await redis.start();
    // Both instances answer fresh assertions again once they have reconnected.
    for (const server of [a, b]) {
      await eventually(async () => (await token(server, await clientAssertion('batch'))).status === 200, 10_000);
    }
    expectTokenError(await token(a, used), 401, 'invalid_client');
    expectTokenError(await token(b, used), 401, 'invalid_client');
  });

  it('still tells a first use from a replay while Redis is down', async () => {
    await redis.stop();
    try {
      const assertion = await clientAssertion('batch');
      expect((await token(a, assertion)).status).toBe(200);
      expectTokenError(await token(b, assertion), 401, 'invalid_client');
      expectTokenError(await token(a, assertion), 401, 'invalid_client');
    } finally {
      await redis.start();
    }
  });

  it('keeps each jti in PostgreSQL until it expires, and the periodic purge removes expired ones only', async () => {
    const jti = randomUUID();
    expect((await token(a, await clientAssertion('batch', { jti }))).status).toBe(200);
    expect(await sql('SELECT client_id FROM client_assertion_jtis WHERE jti = $1', [jti])).toEqual([{ client_id: 'batch' }]);
    const expired = randomUUID();
    await sql(`INSERT INTO client_assertion_jtis (client_id, jti, expires_at) VALUES ('batch', $1, now() - interval '1 hour')`, [expired]);
    expect(await a.app.get(PostgresAssertionReplayGuard).purge()).toBeGreaterThanOrEqual(1);
    expect(await sql('SELECT jti FROM client_assertion_jtis WHERE jti = ANY($1) ORDER BY jti', [[jti, expired]])).toEqual([{ jti }]);
  });
});
