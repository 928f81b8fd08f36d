import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory';
import { startSignalsReceiver, type SignalsReceiver } from '../../examples/signals-receiver';
import { freePort } from '../support/built-service';
import { signInWithCode } from '../support/code-flow';
import { sql, testConfig } from '../support/create-test-app';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { request, requestToken } from '../support/http';

const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';

/**
 * docs/signals.md#a-receiver-for-your-api: examples/signals-receiver.ts, as an API team would run it,
 * against the service at its issuer URL: it creates its stream, verifies what is pushed, answers 202,
 * and drops the cached tokens of a user whose session ended.
 */
describe('examples/signals-receiver.ts', () => {
  const receiverClient = uniqueName('notes-api');
  const api = uniqueName('notes');
  const app = uniqueName('app');
  let tollgate: NestFastifyApplication;
  let issuer: string;
  let receiver: SignalsReceiver;

  beforeAll(async () => {
    await insertClient({ clientId: receiverClient, secrets: [{ secret: 'receiver-secret' }], grantTypes: ['client_credentials'], scopes: ['ssf'] });
    await sql('INSERT INTO api_resources (name, scopes, serving_client_id) VALUES ($1, $2, $3)', [api, [api], receiverClient]);
    await insertClient({
      clientId: app,
      secrets: [],
      public: true,
      grantTypes: ['authorization_code'],
      scopes: ['openid', api],
      redirectUris: ['http://127.0.0.1:1/cb'],
    });
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    tollgate = await createApp(testConfig({ ISSUER: issuer, SIGNALS_DELIVERY_INTERVAL_MS: '50' }));
    await tollgate.listen({ port, host: '127.0.0.1' });
    receiver = await startSignalsReceiver({ issuer, port: 0, clientId: receiverClient, clientSecret: 'receiver-secret' });
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await tollgate?.close();
  });

  it('drops the cached tokens of a user whose session ended, after verifying the SET and answering 202', async () => {
    const username = uniqueName('reader');
    const sub = await insertUser({ username, password: 'reader-password' });
    const { browser, tokens } = await signInWithCode({
      baseUrl: issuer,
      clientId: app,
      redirectUri: 'http://127.0.0.1:1/cb',
      username,
      password: 'reader-password',
      scope: `openid ${api}`,
    });
    expect(tokens.status).toBe(200);
    // The API verified the user's token and cached it.
    receiver.tokens.add(sub, tokens.body.access_token);

    expect((await browser.get(`${issuer}/connect/endsession?${new URLSearchParams({ id_token_hint: tokens.body.id_token })}`)).status).toBe(200);
    const deadline = Date.now() + 30_000;
    while (!receiver.received.some(([type, subject]) => type === SESSION_REVOKED && subject === sub)) {
      if (Date.now() > deadline) throw new Error(`no session-revoked within 30 s: ${JSON.stringify(receiver.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(receiver.tokens.has(tokens.body.access_token)).toBe(false);
  });

  it('refuses a push without the authorization header it asked Tollgate to send, and has the stream it created', async () => {
    const unauthorized = await fetch(`${receiver.url}/events`, { method: 'POST', headers: { 'content-type': 'application/secevent+jwt' }, body: 'x.y.z' });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({ err: 'authentication_failed', description: 'wrong authorization' });
    const token = await requestToken(issuer, receiverClient, 'receiver-secret', { grant_type: 'client_credentials', scope: 'ssf' });
    const streams = await request(`${issuer}/ssf/stream`, { headers: { authorization: `Bearer ${token.body.access_token}` } });
    expect(streams.body).toEqual([
      expect.objectContaining({ stream_id: receiver.streamId, delivery: expect.objectContaining({ endpoint_url: `${receiver.url}/events` }) }),
    ]);
  });
});
