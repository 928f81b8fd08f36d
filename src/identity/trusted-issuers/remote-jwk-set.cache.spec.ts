import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { startJwksServer, type JwksTestServer } from '../../../test/support/jwks-server';
import { JwkSetFetcher } from './jwk-set.fetcher';
import { RemoteJwkSetCache } from './remote-jwk-set.cache';
import { ForeignJwtVerifier } from './foreign-jwt.verifier';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

async function keyPair(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } as JWK };
}

function sign(key: { kid: string; privateKey: PrivateKey }, kid = key.kid) {
  return new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'ES256', kid }).setAudience('tollgate').setExpirationTime('1m').sign(key.privateKey);
}

describe('RemoteJwkSetCache', () => {
  let server: JwksTestServer;
  let now: number;
  let cache: RemoteJwkSetCache;
  const verifier = new ForeignJwtVerifier();
  const verify = (token: string, spiffe = false) => verifier.verify(token, cache.keyResolver(server.url, spiffe), { audience: ['tollgate'] });

  beforeEach(async () => {
    server = await startJwksServer();
    now = 1_000_000;
    cache = new RemoteJwkSetCache(new JwkSetFetcher(), { maxAgeMs: 600_000, unknownKidRefetchMs: 60_000, failureBackoffMs: 10_000, now: () => now });
  });
  afterEach(() => server.close());

  it('fetches once for many concurrent verifications and then serves from memory', async () => {
    const key = await keyPair('k1');
    server.serve({ keys: [key.jwk] });
    const token = await sign(key);
    await Promise.all(Array.from({ length: 20 }, () => verify(token)));
    await verify(token);
    expect(server.hits()).toBe(1);
  });

  it('refetches once on an unknown kid, and finds a key added since', async () => {
    const [first, second] = [await keyPair('k1'), await keyPair('k2')];
    server.serve({ keys: [first.jwk] });
    await verify(await sign(first));
    now += 61_000;
    server.serve({ keys: [first.jwk, second.jwk] });
    await expect(verify(await sign(second))).resolves.toMatchObject({ sub: 'x' });
    expect(server.hits()).toBe(2);
  });

  it('refetches at most once a minute however many requests carry unknown kids', async () => {
    const key = await keyPair('k1');
    server.serve({ keys: [key.jwk] });
    await verify(await sign(key));
    now += 61_000;
    const unknown = await Promise.all(Array.from({ length: 30 }, (_, i) => sign(key, `unknown-${i}`)));
    const results = await Promise.allSettled(unknown.map((token) => verify(token)));
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(server.hits()).toBe(2);
    now += 30_000;
    await expect(verify(await sign(key, 'still-unknown'))).rejects.toThrow('no registered key matches the JWT');
    expect(server.hits()).toBe(2);
    now += 31_000;
    await expect(verify(await sign(key, 'unknown-again'))).rejects.toThrow();
    expect(server.hits()).toBe(3);
  });

  it('refetches a set older than its maximum age', async () => {
    const key = await keyPair('k1');
    server.serve({ keys: [key.jwk] });
    const token = await sign(key);
    await verify(token);
    now += 600_001;
    await verify(token);
    expect(server.hits()).toBe(2);
  });

  it('keeps serving the previous keys when a refetch fails, and waits before trying again', async () => {
    const key = await keyPair('k1');
    server.serve({ keys: [key.jwk] });
    const token = await sign(key);
    await verify(token);
    now += 600_001;
    server.serve('down', { status: 503 });
    await expect(verify(token)).resolves.toMatchObject({ sub: 'x' });
    await expect(verify(token)).resolves.toMatchObject({ sub: 'x' });
    expect(server.hits()).toBe(2);
  });

  it('honours a SPIFFE bundle: jwt-svid keys verify and spiffe_refresh_hint sets the age', async () => {
    const key = await keyPair('svid-1');
    server.serve({ spiffe_refresh_hint: 60, keys: [{ ...key.jwk, use: 'jwt-svid' }] });
    const token = await sign(key);
    await expect(verify(token, true)).resolves.toMatchObject({ sub: 'x' });
    now += 61_000;
    await verify(token, true);
    expect(server.hits()).toBe(2);
  });

  it('does not take jwt-svid keys from a plain JWK Set', async () => {
    const key = await keyPair('svid-1');
    server.serve({ keys: [{ ...key.jwk, use: 'jwt-svid' }] });
    await expect(verify(await sign(key))).rejects.toThrow('no registered key matches the JWT');
  });
});
