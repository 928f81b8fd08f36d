import { PendingRequestsByAddress1766450000000 } from '../../migrations/1766450000000-PendingRequestsByAddress';
import { pkce } from '../support/browser';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, uniqueName } from '../support/fixtures';
import { basic, postFormFrom, type HttpResponse } from '../support/http';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
const CALLBACK = 'http://127.0.0.1:5173/callback';
/** Parallel senders of a flood: what the bounds may be passed by when requests race. */
const WORKERS = 8;

/** Sends from `WORKERS` loops until `refusals` answers were 429 or `max` requests went out: the answers' statuses. */
async function flood(send: () => Promise<HttpResponse>, { max, refusals }: { max: number; refusals: number }): Promise<number[]> {
  const statuses: number[] = [];
  const refused = () => statuses.filter((status) => status === 429).length;
  let sent = 0;
  const loop = async () => {
    while (sent < max && refused() < refusals) {
      sent++;
      statuses.push((await send()).status);
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, loop));
  return statuses;
}

/** Every answer of a flood from one address is `accepted` or 429, and 100 were accepted (a few more when requests raced). */
function expectHeldToTheAddressBound(statuses: readonly number[], accepted: number): void {
  const stored = statuses.filter((status) => status === accepted).length;
  expect(stored + statuses.filter((status) => status === 429).length).toBe(statuses.length);
  expect(stored).toBeGreaterThanOrEqual(100);
  expect(stored).toBeLessThanOrEqual(100 + WORKERS);
}

function expectTooMany(response: HttpResponse, error: string): void {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe('60');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.body).toEqual({ error, error_description: expect.any(String) });
}

/**
 * No stranger may lock a client out (docs/throttling.md#pending-requests): requests
 * anyone can make for a public client — pushed authorization requests (RFC 9126) and device
 * authorizations (RFC 8628) — are bounded per (client, address) well below the client's bound, so
 * a flood from one address leaves the client to everyone else. Callers at 127.0.0.x play the addresses.
 */
describe('pending pushed requests and device authorizations under a flood from one address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe('pushed authorization requests', () => {
    let spa: string;
    beforeAll(async () => {
      spa = uniqueName('public-spa');
      await insertClient({ clientId: spa, secrets: [], public: true, grantTypes: ['authorization_code'], scopes: ['openid'], redirectUris: [CALLBACK] });
    });
    const push = (from: string, clientId = spa, headers: Record<string, string> = {}) =>
      postFormFrom(
        from,
        `${server.url}/connect/par`,
        {
          ...(headers.authorization ? {} : { client_id: clientId }),
          response_type: 'code',
          redirect_uri: CALLBACK,
          scope: 'openid',
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        },
        headers,
      );

    it("holds at most 100 anonymous pushes for a public client from one address, and still takes another address's", async () => {
      expectHeldToTheAddressBound(await flood(() => push('127.0.0.61'), { max: 10_500, refusals: 300 }), 201);
      expectTooMany(await push('127.0.0.61'), 'invalid_request');
      const other = await push('127.0.0.62');
      expect(other.status).toBe(201);
      expect(other.body.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    }, 120_000);

    it('refuses a push once the client holds 10,000, from any address', async () => {
      const full = uniqueName('full-spa');
      await insertClient({ clientId: full, secrets: [], public: true, grantTypes: ['authorization_code'], scopes: ['openid'], redirectUris: [CALLBACK] });
      await sql(
        `INSERT INTO pushed_authorization_requests (request_uri_hash, client_id, parameters, expires_at, requested_from)
         SELECT md5(random()::text || n), $1, '{}', now() + interval '1 minute', '10.0.' || (n / 100) || '.1' FROM generate_series(1, 10000) AS n`,
        [full],
      );
      expectTooMany(await push('127.0.0.63', full), 'invalid_request');
      await sql('DELETE FROM pushed_authorization_requests WHERE client_id = $1', [full]);
      expect((await push('127.0.0.63', full)).status).toBe(201);
    }, 60_000);

    it("does not hold a confidential client's own pushes from its one address to the per-address bound", async () => {
      const clientId = uniqueName('confidential-web');
      await insertClient({ clientId, secrets: [{ secret: 'web-secret' }], grantTypes: ['authorization_code'], scopes: ['openid'], redirectUris: [CALLBACK] });
      const statuses = await flood(() => push('127.0.0.64', clientId, { authorization: basic(clientId, 'web-secret') }), { max: 150, refusals: 1 });
      expect(statuses).toEqual(Array(150).fill(201));
    }, 60_000);
  });

  describe('device authorizations', () => {
    let tv: string;
    beforeAll(async () => {
      tv = uniqueName('public-tv');
      await insertClient({ clientId: tv, secrets: [], public: true, grantTypes: [DEVICE_CODE], scopes: ['openid'] });
    });
    const start = (from: string, clientId = tv, headers: Record<string, string> = {}) =>
      postFormFrom(from, `${server.url}/connect/deviceauthorization`, { ...(headers.authorization ? {} : { client_id: clientId }), scope: 'openid' }, headers);

    it("holds at most 100 pending for a public client from one address, and still starts another address's", async () => {
      expectHeldToTheAddressBound(await flood(() => start('127.0.0.71'), { max: 2_000, refusals: 300 }), 200);
      expectTooMany(await start('127.0.0.71'), 'temporarily_unavailable');
      const other = await start('127.0.0.72');
      expect(other.status).toBe(200);
      expect(other.body.user_code).toEqual(expect.any(String));
    }, 120_000);

    it('refuses a request once the client holds 10,000 pending, from any address, and counts only unexpired ones', async () => {
      const full = uniqueName('full-tv');
      await insertClient({ clientId: full, secrets: [], public: true, grantTypes: [DEVICE_CODE], scopes: ['openid'] });
      const fill = (expires: string) =>
        sql(
          `INSERT INTO device_authorizations (device_code_hash, user_code, client_id, scopes, interval_seconds, expires_at, requested_from)
           SELECT md5(random()::text || n), upper(substr(md5(random()::text || n), 1, 12)), $1, '{openid}', 5, ${expires}, '10.1.' || (n / 100) || '.1'
           FROM generate_series(1, 10000) AS n`,
          [full],
        );
      await fill("now() - interval '1 second'");
      expect((await start('127.0.0.73', full)).status).toBe(200);
      await sql('DELETE FROM device_authorizations WHERE client_id = $1', [full]);
      await fill("now() + interval '10 minutes'");
      expectTooMany(await start('127.0.0.73', full), 'temporarily_unavailable');
      await sql('DELETE FROM device_authorizations WHERE client_id = $1', [full]);
    }, 60_000);

    it("does not hold a confidential client's own requests from one address to the per-address bound", async () => {
      const clientId = uniqueName('confidential-tv');
      await insertClient({ clientId, secrets: [{ secret: 'tv-secret' }], grantTypes: [DEVICE_CODE], scopes: ['openid'] });
      const statuses = await flood(() => start('127.0.0.74', clientId, { authorization: basic(clientId, 'tv-secret') }), { max: 150, refusals: 1 });
      expect(statuses).toEqual(Array(150).fill(200));
    }, 60_000);
  });
});

/** The migration that records where anonymous requests came from: `down` removes what `up` added, and `up` applies again. */
describe('migration PendingRequestsByAddress', () => {
  let database: MigratedDatabase;
  beforeAll(async () => {
    database = await migratedDatabase();
  }, 120_000);
  afterAll(() => database?.close());

  it('down removes the columns, up puts them back', async () => {
    const migration = new PendingRequestsByAddress1766450000000();
    const runner = database.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await database.columns('pushed_authorization_requests')).not.toContain('requested_from');
      expect(await database.columns('device_authorizations')).not.toContain('requested_from');
      await migration.up(runner);
      expect(await database.columns('pushed_authorization_requests')).toContain('requested_from');
      expect(await database.columns('device_authorizations')).toContain('requested_from');
    } finally {
      await runner.release();
    }
  });
});
