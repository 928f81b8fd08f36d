import { Client } from 'pg';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { signInWithCode } from '../support/code-flow';
import { emptyDatabase, ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { secretHash, uniqueName } from '../support/fixtures';
import { request } from '../support/http';
import { payloadOf, SignalReceiver } from '../support/signal-receiver';

/**
 * docs/signals.md#delivery: the outbox is in PostgreSQL, so a logout token queued by an instance that
 * stops before delivering it is delivered by another. Two instances on one fresh database: the session
 * ends on A, the relying party fails A's attempt, A stops, and B delivers.
 */
describe('signals from two instances on one database', () => {
  const rp = uniqueName('rp');
  let database: { url: string; drop: () => Promise<void> };
  let a: TestServer | undefined;
  let b: TestServer;
  let receiver: SignalReceiver;

  async function sql(text: string, values: unknown[]): Promise<void> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(text, values);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    database = await emptyDatabase();
    receiver = await SignalReceiver.start();
    const env = { DATABASE_URL: database.url, SIGNALS_DELIVERY_INTERVAL_MS: '50' };
    a = await startTestServer(env);
    b = await startTestServer(env);
    await sql(
      `INSERT INTO clients (client_id, allowed_grant_types, allowed_scopes, redirect_uris, backchannel_logout_uri) VALUES ($1, '{authorization_code}', '{openid}', $2, $3)`,
      [rp, [`${receiver.url}/callback`], `${receiver.url}/backchannel-logout`],
    );
    await sql('INSERT INTO client_secrets (client_id, value_hash) VALUES ($1, $2)', [rp, secretHash('rp-secret')]);
  }, 180_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('delivers from the instance that did not end the session, after the one that did has stopped', async () => {
    const server = a!;
    const { browser, tokens } = await signInWithCode({
      baseUrl: server.url,
      clientId: rp,
      secret: 'rp-secret',
      redirectUri: `${receiver.url}/callback`,
      username: 'alice',
      password: 'alice',
    });
    const { sid } = payloadOf(tokens.body.id_token);
    let aStopped = false;
    receiver.answer = () => (aStopped ? 200 : 500);

    expect((await browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: tokens.body.id_token })}`)).status).toBe(200);
    // A (or B) tried while A still ran, and the relying party failed it: the row stays in the outbox.
    await receiver.waitFor((signal) => signal.status === 500, 30_000, 'failed attempt');
    await server.close();
    a = undefined;
    aStopped = true;

    const delivered = await receiver.waitFor((signal) => signal.status === 200, 30_000, 'delivery by B');
    const keys = createLocalJWKSet((await request(`${b.url}/.well-known/openid-configuration/jwks`)).body);
    const { payload } = await jwtVerify(delivered.token, keys, { issuer: ISSUER, audience: rp, typ: 'logout+jwt' });
    expect(payload).toMatchObject({ sub: '1', sid });
    const attempts = receiver.received.filter((signal) => payloadOf(signal.token).jti === payload.jti);
    expect(attempts.map((signal) => signal.status)).toEqual([...attempts.slice(0, -1).map(() => 500), 200]);
  });
});
