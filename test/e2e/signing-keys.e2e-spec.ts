import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { SigningKeyRotator } from '../../src/tokens/keys/signing-key.rotator';
import { emptyDatabase, ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { uniqueName } from '../support/fixtures';
import { request, requestToken, userAccessToken } from '../support/http';
import { servicePrivateKey } from '../support/signing-keys';

/**
 * Two instances on one database share keys and rotate together. Other specs run on
 * the same database and need a working key, so this spec only ever adds keys: a forced rotation
 * makes a new key of the same algorithm that signs at once (KEY_PROPAGATION_TIME=0 here), and the
 * old ones stay published for the retention time. It never sets another KEY_ENCRYPTION_KEY, which
 * would re-seal the keys under a key the other specs' instances do not have.
 */
const ENV = { CACHE_TTL_SECONDS: '1', KEY_PROPAGATION_TIME: '0' };

describe('signing keys shared by two instances', () => {
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    // Started together: the first rotation check runs under the database lock on both.
    [one, two] = await Promise.all([startTestServer(ENV), startTestServer(ENV)]);
  });
  afterAll(() => Promise.all([one?.close(), two?.close()]));

  const kidOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')).kid;
  const jwks = async (server: TestServer): Promise<JSONWebKeySet> => (await request(`${server.url}/.well-known/openid-configuration/jwks`)).body;
  const delegate = (server: TestServer, token: string) => requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token, scope: 'api2' });

  /** The token verifies on `server`: with jose against its JWKS, and through its delegation grant (docs/tokens.md#validation). */
  async function expectAcceptedBy(server: TestServer, token: string): Promise<void> {
    const { protectedHeader } = await jwtVerify(token, createLocalJWKSet(await jwks(server)), { issuer: ISSUER, typ: 'at+jwt' });
    expect(protectedHeader.kid).toBe(kidOf(token));
    const delegated = await delegate(server, token);
    expect({ status: delegated.status, error: delegated.body.error }).toEqual({ status: 200, error: undefined });
  }

  /** Polls until `check` holds: instances reload keys every CACHE_TTL_SECONDS (1 s here). */
  async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not within 15 s: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('a token signed by either instance verifies on both', async () => {
    const fromOne = await userAccessToken(one.url, 'alice', 'openid api1');
    const fromTwo = await userAccessToken(two.url, 'alice', 'openid api1');
    for (const server of [one, two]) {
      await expectAcceptedBy(server, fromOne);
      await expectAcceptedBy(server, fromTwo);
    }
    expect(await jwks(one)).toEqual(await jwks(two));
  });

  it('keeps every private key sealed at rest (AES-256-GCM), never as PEM', async () => {
    const rows = await sql<{ kid: string; private_key: string; public_key: string | null }>('SELECT kid, private_key, public_key FROM signing_keys');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.private_key).toMatch(/^sealed:v1:[\w-]{8}:[\w-]{16}:[\w-]{22}:[\w-]+$/);
      expect(row.private_key).not.toContain('PRIVATE KEY');
      expect(row.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    }
  });

  it('after a forced rotation both sign with the new key, and tokens of the old key still validate on both', async () => {
    const before = await userAccessToken(one.url, 'alice', 'openid api1');
    const oldKid = kidOf(before);

    const [rotated] = await one.app.get(SigningKeyRotator).rotateNow();
    expect(rotated.kid).not.toBe(oldKid);
    const [row] = await sql<{ signs_now: boolean }>('SELECT activates_at <= now() AS signs_now FROM signing_keys WHERE kid = $1', [rotated.kid]);
    expect(row.signs_now).toBe(true);

    for (const server of [one, two]) {
      await eventually(async () => kidOf(await userAccessToken(server.url, 'alice', 'openid api1')) === rotated.kid, `${server.url} signs with ${rotated.kid}`);
    }
    const after = [await userAccessToken(one.url, 'alice', 'openid api1'), await userAccessToken(two.url, 'alice', 'openid api1')];
    for (const server of [one, two]) {
      const kids = (await jwks(server)).keys.map((key) => key.kid);
      expect(kids).toEqual(expect.arrayContaining([oldKid, rotated.kid]));
      await expectAcceptedBy(server, before);
      for (const token of after) await expectAcceptedBy(server, token);
    }

    // The next rotation check (any instance) schedules the old key's retirement: published for the
    // retention time (14 days by default) after the new key took over, not retired now.
    await two.app.get(SigningKeyRotator).rotateIfDue();
    const [old] = await sql<{ retired_at: Date | null; published_days: number }>(
      `SELECT retired_at, extract(epoch FROM retires_at - now()) / 86400 AS published_days FROM signing_keys WHERE kid = $1`,
      [oldKid],
    );
    expect(old.retired_at).toBeNull();
    expect(Number(old.published_days)).toBeGreaterThan(13.9);
    expect(Number(old.published_days)).toBeLessThanOrEqual(14.01);
  });

  it('keeps a plaintext key from before encryption working, and re-seals it at the next rotation check', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const kid = uniqueName('legacy');
    // As the first version stored keys: PKCS#8 PEM, no public key. Activated in the past, so it is
    // older than the current key and never becomes the signing key of the other specs' instances.
    await sql(
      `INSERT INTO signing_keys (kid, algorithm, private_key, created_at, activates_at)
       VALUES ($1, 'RS256', $2, now() - interval '1 hour', now() - interval '1 hour')`,
      [kid, pem],
    );
    for (const server of [one, two]) {
      await eventually(async () => (await jwks(server)).keys.some((key) => key.kid === kid), `${server.url} publishes ${kid}`);
    }
    const now = Math.floor(Date.now() / 1000);
    const legacyToken = await new SignJWT({
      sub: '1',
      aud: 'api1',
      client_id: 'frontend',
      scope: 'openid api1',
      jti: randomBytes(8).toString('hex'),
      auth_time: now,
      amr: ['pwd'],
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
      .setIssuer(ISSUER)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    await expectAcceptedBy(one, legacyToken);

    await one.app.get(SigningKeyRotator).rotateIfDue();
    const [row] = await sql<{ private_key: string; public_key: string | null }>('SELECT private_key, public_key FROM signing_keys WHERE kid = $1', [kid]);
    expect(row.private_key).toMatch(/^sealed:v1:/);
    expect(row.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect((await servicePrivateKey(kid)).export({ format: 'pem', type: 'pkcs8' })).toBe(pem);
    await expectAcceptedBy(two, legacyToken);
  });
});

/** On a database of its own: these change the key-encryption key, which the shared database must never see. */
describe('the key-encryption key', () => {
  let database: { url: string; drop: () => Promise<void> };
  const started: TestServer[] = [];
  const first = randomBytes(32).toString('base64');
  const second = randomBytes(32).toString('base64');

  beforeAll(async () => {
    database = await emptyDatabase();
  });
  afterAll(async () => {
    await Promise.all(started.map((server) => server.close()));
    await database?.drop();
  });

  const start = async (env: Record<string, string>) => {
    const server = await startTestServer({ DATABASE_URL: database.url, CACHE_TTL_SECONDS: '1', ...env });
    started.push(server);
    return server;
  };

  it('stops the boot with a clear message when it cannot open the signing key', async () => {
    await start({ KEY_ENCRYPTION_KEY: first });
    await expect(start({ KEY_ENCRYPTION_KEY: second })).rejects.toThrow(
      /^No usable RS256 signing key: signing key [\w-]+ was sealed under key-encryption key [\w-]{8}, but KEY_ENCRYPTION_KEY is [\w-]{8} \(previous: [\w-]{8}\)$/,
    );
  });

  it('changes without losing a key: KEY_ENCRYPTION_KEY_PREVIOUS opens the old rows, which are re-sealed under the new key', async () => {
    const before = await start({ KEY_ENCRYPTION_KEY: first });
    const token = await userAccessToken(before.url, 'alice', 'openid api1');
    const after = await start({ KEY_ENCRYPTION_KEY: second, KEY_ENCRYPTION_KEY_PREVIOUS: first });
    expect((await requestToken(after.url, 'api1', 'api1-secret', { grant_type: 'delegation', token, scope: 'api2' })).status).toBe(200);
    // Only the new key opens the table now.
    await expect(start({ KEY_ENCRYPTION_KEY: first })).rejects.toThrow(/^No usable RS256 signing key/);
  });
});
