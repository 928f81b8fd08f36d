import { decodeProtectedHeader } from 'jose';
import { createApp } from '../../src/app.factory';
import { SigningKeyRotator } from '../../src/tokens/keys/signing-key.rotator';
import { SigningKeyStore } from '../../src/tokens/keys/signing-key.store';
import { emptyDatabase, testConfig } from '../support/create-test-app';
import { request, requestToken, userAccessToken } from '../support/http';

type App = Awaited<ReturnType<typeof createApp>>;

/** Instances on a database of their own: these change which key signs, which the shared database must not see. */
describe('key rollover across instances', () => {
  let database: { url: string; drop: () => Promise<void> };
  const started: App[] = [];

  async function start(env: Record<string, string>): Promise<{ app: App; url: string }> {
    const app = await createApp(testConfig({ DATABASE_URL: database.url, ...env }));
    started.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, url: `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}` };
  }
  const delegate = (url: string, token: string) => requestToken(url, 'api1', 'api1-secret', { grant_type: 'delegation', token, scope: 'api2' });

  beforeEach(async () => {
    database = await emptyDatabase();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((app) => app.close()));
    await database.drop();
  });

  it('accepts at once a token signed with a key another instance has just created (forced rotation)', async () => {
    // Keys are reloaded only every hour here: only the reload on an unknown kid can find the new key.
    const one = await start({ CACHE_TTL_SECONDS: '3600' });
    const two = await start({ CACHE_TTL_SECONDS: '3600' });
    const before = decodeProtectedHeader(await userAccessToken(two.url, 'alice', 'openid api1')).kid;

    const [{ kid }] = await one.app.get(SigningKeyRotator).rotateNow({ immediately: true });
    await one.app.get(SigningKeyStore).reload();
    const fromOne = await userAccessToken(one.url, 'alice', 'openid api1');
    expect(decodeProtectedHeader(fromOne).kid).toBe(kid);
    expect(kid).not.toBe(before);

    const delegated = await delegate(two.url, fromOne);
    expect({ status: delegated.status, error: delegated.body.error }).toEqual({ status: 200, error: undefined });
    const userinfo = await request(`${two.url}/connect/userinfo`, { headers: { authorization: `Bearer ${fromOne}` } });
    expect(userinfo.status).toBe(200);
    // And the other way round: the key `two` still signs with stays published.
    const fromTwo = await userAccessToken(two.url, 'alice', 'openid api1');
    expect((await delegate(one.url, fromTwo)).status).toBe(200);
  });

  it('publishes a key for a new SIGNING_ALG before it signs, and lists both algorithms meanwhile', async () => {
    const rsa = await start({});
    const es = await start({ SIGNING_ALG: 'ES256' });
    const jwks: { kid: string; alg: string }[] = (await request(`${es.url}/.well-known/openid-configuration/jwks`)).body.keys;
    expect(jwks.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    const discovery = (await request(`${es.url}/.well-known/openid-configuration`)).body;
    expect([...discovery.id_token_signing_alg_values_supported].sort()).toEqual(['ES256', 'RS256']);

    // The ES256 key waits out the propagation time (14 days by default): the RSA key signs on.
    const token = await userAccessToken(es.url, 'alice', 'openid api1');
    expect(decodeProtectedHeader(token).alg).toBe('RS256');
    expect((await delegate(rsa.url, token)).status).toBe(200);
    await rsa.app.get(SigningKeyStore).reload();
    const rsaDiscovery = (await request(`${rsa.url}/.well-known/openid-configuration`)).body;
    expect([...rsaDiscovery.id_token_signing_alg_values_supported].sort()).toEqual(['ES256', 'RS256']);
  });
});
