import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { RecordingAuditSink } from '../../src/platform/audit/recording-audit.sink';
import { MetricsListener } from '../../src/platform/metrics/metrics.listener';
import { ensureBuilt, ROOT, runToExit, type Exit } from '../support/built-service';
import { locationParameters, pkce, type Browser } from '../support/browser';
import { signInWithCode } from '../support/code-flow';
import { ISSUER, sql, startTestServer, testDatabaseUrl, TEST_KEY_ENCRYPTION_KEY, type TestServer } from '../support/create-test-app';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { postForm, request, requestToken } from '../support/http';
import { payloadOf, SignalReceiver, type ReceivedSignal } from '../support/signal-receiver';

const TOLLGATE = join(ROOT, 'dist/cli/tollgate.js');

/** Waits until `condition` holds, polling every 20 ms, at most 30 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
const CREDENTIAL_CHANGE = 'https://schemas.openid.net/secevent/caep/event-type/credential-change';
const VERIFICATION = 'https://schemas.openid.net/secevent/ssf/event-type/verification';

/**
 * docs/signals.md: back-channel logout tokens and Shared Signals SETs, pushed by the
 * service from its outbox to a relying party and a receiver on loopback (the issuer is http).
 */
describe('signals', () => {
  const audit = new RecordingAuditSink();
  const rp = uniqueName('rp');
  const app = uniqueName('app');
  const receiverClient = uniqueName('rcv');
  const otherReceiver = uniqueName('rcv2');
  const api = uniqueName('api');
  let server: TestServer;
  let receiver: SignalReceiver;
  let keys: JWTVerifyGetKey;

  beforeAll(async () => {
    await ensureBuilt();
    receiver = await SignalReceiver.start();
    await insertClient({
      clientId: rp,
      secrets: [{ secret: 'rp-secret' }],
      grantTypes: ['authorization_code'],
      scopes: ['openid'],
      redirectUris: [`${receiver.url}/callback`],
    });
    await sql('UPDATE clients SET backchannel_logout_uri = $2, backchannel_logout_session_required = true WHERE client_id = $1', [
      rp,
      `${receiver.url}/backchannel-logout`,
    ]);
    // The receiver serves an API; a user who calls it through `app` has used it.
    for (const clientId of [receiverClient, otherReceiver]) {
      await insertClient({ clientId, secrets: [{ secret: `${clientId}-secret` }], grantTypes: ['client_credentials'], scopes: ['ssf'] });
    }
    await sql('INSERT INTO api_resources (name, scopes, serving_client_id) VALUES ($1, $2, $3)', [api, [api], receiverClient]);
    await insertClient({ clientId: app, secrets: [{ secret: 'app-secret' }], grantTypes: ['password'], scopes: ['openid', api] });
    server = await startTestServer({ SIGNALS_DELIVERY_INTERVAL_MS: '50', METRICS_PORT: '0' }, { auditSink: audit });
    keys = createLocalJWKSet((await request(`${server.url}/.well-known/openid-configuration/jwks`)).body);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  /** A browser signed in to `rp` with the code flow: its cookies, and the ID token (with `sid`). */
  async function signedIn(username: string, password: string): Promise<{ browser: Browser; idToken: string }> {
    const { browser, tokens } = await signInWithCode({
      baseUrl: server.url,
      clientId: rp,
      secret: 'rp-secret',
      redirectUri: `${receiver.url}/callback`,
      username,
      password,
    });
    expect(tokens.status).toBe(200);
    return { browser, idToken: tokens.body.id_token };
  }

  /** `rp`'s authorization request, PKCE with `challenge`. */
  const authorizeUrl = (challenge: string, prompt?: string) =>
    `${server.url}/connect/authorize?${new URLSearchParams({
      client_id: rp,
      redirect_uri: `${receiver.url}/callback`,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...(prompt === undefined ? {} : { prompt }),
    })}`;

  /** The user calls the receiver's API through `app`: a token whose `aud` names the receiver. */
  async function usesReceiver(username: string, password: string): Promise<void> {
    const token = await requestToken(server.url, app, 'app-secret', { grant_type: 'password', username, password, scope: api });
    expect(token.status).toBe(200);
  }

  async function receiverToken(clientId = receiverClient): Promise<string> {
    const response = await requestToken(server.url, clientId, `${clientId}-secret`, { grant_type: 'client_credentials', scope: 'ssf' });
    expect(response.status).toBe(200);
    return response.body.access_token;
  }

  const json = (token: string, method: string, path: string, body?: unknown) =>
    request(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** An operator command, run as a process against the run's database. */
  function tollgate(argv: string[], stdin = ''): Promise<Exit> {
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: testDatabaseUrl(), KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, [TOLLGATE, ...argv], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(stdin);
    return runToExit(child, 60_000);
  }
  const users = (argv: string[], stdin = '') => tollgate(['users', ...argv], stdin);

  const isLogout = (signal: ReceivedSignal) => signal.path === '/backchannel-logout';
  const isEvent = (type: string, subject: string) => (signal: ReceivedSignal) =>
    signal.path === '/events' &&
    type in ((payloadOf(signal.token).events as object) ?? {}) &&
    (payloadOf(signal.token).sub_id as { sub?: string }).sub === subject;

  describe('OpenID Connect Back-Channel Logout', () => {
    it('POSTs a logout token after RP-initiated logout, once the logout page has answered', async () => {
      const username = uniqueName('logout');
      const sub = await insertUser({ username, password: 'logout-password' });
      const { browser, idToken } = await signedIn(username, 'logout-password');
      const { sid } = payloadOf(idToken);
      let release: (status: number) => void = () => undefined;
      receiver.answer = (signal) => (isLogout(signal) && payloadOf(signal.token).sub === sub ? new Promise((resolve) => (release = resolve)) : 200);

      const page = await browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: idToken })}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('signed out');
      // The page answered while the relying party still holds its answer to the logout token.
      const delivered = await receiver.waitFor((signal) => isLogout(signal) && payloadOf(signal.token).sub === sub);
      expect(delivered.status).toBeUndefined();
      release(200);

      expect(delivered.contentType).toBe('application/x-www-form-urlencoded');
      const { payload, protectedHeader } = await jwtVerify(delivered.token, keys, { issuer: ISSUER, audience: rp, typ: 'logout+jwt' });
      expect(protectedHeader.kid).toEqual(expect.any(String));
      expect(payload).toEqual({
        iss: ISSUER,
        aud: rp,
        iat: expect.any(Number),
        exp: expect.any(Number),
        jti: expect.any(String),
        sub,
        sid,
        events: { [LOGOUT_EVENT]: {} },
      });
      expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(120);
      expect(payload).not.toHaveProperty('nonce');
    });

    it('POSTs a logout token for the session a new sign-in in the same browser replaces, and revokes its unredeemed codes', async () => {
      const first = uniqueName('replaced');
      const firstSub = await insertUser({ username: first, password: 'replaced-password' });
      const { browser, idToken } = await signedIn(first, 'replaced-password');
      const { sid } = payloadOf(idToken);
      const { verifier, challenge } = pkce();
      const authorize = (prompt?: string) => authorizeUrl(challenge, prompt);
      const unredeemed = locationParameters(await browser.get(authorize())).code;
      expect(unredeemed).toEqual(expect.any(String));

      const second = uniqueName('replacing');
      await insertUser({ username: second, password: 'replacing-password' });
      const signedInAgain = await browser.submit(server.url, await (await browser.get(authorize('login'))).text(), {
        username: second,
        password: 'replacing-password',
      });
      expect(signedInAgain.status).toBe(302);

      const delivered = await receiver.waitFor((signal) => isLogout(signal) && payloadOf(signal.token).sub === firstSub);
      expect(payloadOf(delivered.token)).toMatchObject({ aud: rp, sid, events: { [LOGOUT_EVENT]: {} } });
      const redeemed = await requestToken(server.url, rp, 'rp-secret', {
        grant_type: 'authorization_code',
        code: unredeemed,
        redirect_uri: `${receiver.url}/callback`,
        code_verifier: verifier,
      });
      expect(redeemed.body.error).toBe('invalid_grant');
      expect(await sql('SELECT 1 FROM authorization_codes WHERE session_id = $1 AND consumed_at IS NULL', [sid])).toEqual([]);
    });

    it('tries again after a 500, with a newly signed token of the same jti', async () => {
      const username = uniqueName('retry');
      const sub = await insertUser({ username, password: 'retry-password' });
      const { browser, idToken } = await signedIn(username, 'retry-password');
      const mine = (signal: ReceivedSignal) => isLogout(signal) && payloadOf(signal.token).sub === sub;
      receiver.answer = (signal) => (mine(signal) && receiver.received.filter(mine).length === 1 ? 500 : 200);

      expect((await browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: idToken })}`)).status).toBe(200);
      const retried = await receiver.waitFor((signal) => mine(signal) && signal.status === 200);
      const [first] = receiver.received.filter(mine);
      expect(first.status).toBe(500);
      expect(payloadOf(retried.token).jti).toBe(payloadOf(first.token).jti);
      await jwtVerify(retried.token, keys, { issuer: ISSUER, audience: rp, typ: 'logout+jwt' });
      const jwtId = payloadOf(first.token).jti;
      // The audit event follows the receiver's answer.
      await until(() => audit.events.some((event) => event.name === 'signal.delivered' && event.jwtId === jwtId));
      expect(audit.events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: 'signal.delivery_failed',
            kind: 'backchannel_logout',
            clientId: rp,
            jwtId,
            attempts: 1,
            error: 'the receiver answered 500',
          }),
          { name: 'signal.delivered', kind: 'backchannel_logout', clientId: rp, jwtId, attempts: 2 },
        ]),
      );
      const metrics = (await request(`http://127.0.0.1:${server.app.get(MetricsListener).port()}/metrics`)).body as string;
      for (const outcome of ['retried', 'delivered']) {
        expect(metrics).toMatch(new RegExp(`^tollgate_signal_deliveries_total\\{kind="backchannel_logout",outcome="${outcome}"\\} [1-9]`, 'm'));
      }
      expect(metrics).toMatch(/^tollgate_signal_backlog\{kind="backchannel_logout"\} \d/m);
      expect(metrics).not.toContain(rp);
    });

    it('refuses a code of a session an operator ended before it was redeemed', async () => {
      const username = uniqueName('ended');
      await insertUser({ username, password: 'ended-password' });
      const { browser, idToken } = await signedIn(username, 'ended-password');
      const { verifier, challenge } = pkce();
      const code = locationParameters(await browser.get(authorizeUrl(challenge))).code;
      expect((await tollgate(['sessions', 'end', payloadOf(idToken).sid as string])).code).toBe(0);
      const redeemed = await requestToken(server.url, rp, 'rp-secret', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${receiver.url}/callback`,
        code_verifier: verifier,
      });
      expect({ status: redeemed.status, body: redeemed.body }).toEqual({
        status: 400,
        body: { error: 'invalid_grant', error_description: 'the sign-in session of the authorization code has ended' },
      });
    });

    it('POSTs a logout token when an operator ends the session', async () => {
      const username = uniqueName('operator');
      const sub = await insertUser({ username, password: 'operator-password' });
      const { idToken } = await signedIn(username, 'operator-password');
      const { sid } = payloadOf(idToken);
      const listed = await tollgate(['sessions', 'list', username, '--json']);
      expect(JSON.parse(listed.stdout)).toEqual([{ sid, authTime: expect.any(String), expiresAt: expect.any(String), idTokenClients: [rp] }]);

      const ended = await tollgate(['sessions', 'end', sid as string]);
      expect(ended).toMatchObject({ code: 0, stdout: expect.stringContaining(`Ended session ${sid} of ${sub}`) });
      const delivered = await receiver.waitFor((signal) => isLogout(signal) && payloadOf(signal.token).sid === sid);
      expect(payloadOf(delivered.token)).toMatchObject({ sub, aud: rp });
      expect((await tollgate(['sessions', 'list', username, '--json'])).stdout.trim()).toBe('[]');
      expect((await tollgate(['sessions', 'end', sid as string])).code).toBe(1);
    });

    it('leaves the session as it was when its logout token cannot be written, and tells of it at the next logout', async () => {
      const username = uniqueName('untold');
      const sub = await insertUser({ username, password: 'untold-password' });
      const { browser, idToken } = await signedIn(username, 'untold-password');
      const sid = payloadOf(idToken).sid as string;
      const refuse = uniqueName('refuse_outbox').replace(/\W/g, '_');
      // The outbox refuses this session's logout token (only its), as a failing disk or a lost connection would.
      await sql(
        `CREATE FUNCTION ${refuse}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.claims->>'sid' = '${sid}' THEN RAISE EXCEPTION 'outbox refused'; END IF; RETURN NEW; END $$`,
      );
      await sql(`CREATE TRIGGER ${refuse} BEFORE INSERT ON signal_outbox FOR EACH ROW EXECUTE FUNCTION ${refuse}()`);
      const logout = () => browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: idToken })}`);
      try {
        const failed = await logout();
        expect(failed.status).toBeGreaterThanOrEqual(500);
        expect(await sql('SELECT session_id FROM sign_in_sessions WHERE session_id = $1', [sid])).toEqual([{ session_id: sid }]);
      } finally {
        await sql(`DROP TRIGGER ${refuse} ON signal_outbox`);
        await sql(`DROP FUNCTION ${refuse}()`);
      }

      const page = await logout();
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('signed out');
      const delivered = await receiver.waitFor((signal) => isLogout(signal) && payloadOf(signal.token).sid === sid);
      expect(payloadOf(delivered.token)).toMatchObject({ sub, aud: rp });
      expect(await sql('SELECT session_id FROM sign_in_sessions WHERE session_id = $1', [sid])).toEqual([]);
    });
  });

  describe('Shared Signals', () => {
    let streamId: string;

    it('serves the transmitter configuration', async () => {
      const response = await request(`${server.url}/.well-known/ssf-configuration`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        issuer: ISSUER,
        jwks_uri: `${ISSUER}/.well-known/openid-configuration/jwks`,
        delivery_methods_supported: ['urn:ietf:rfc:8935'],
        configuration_endpoint: `${ISSUER}/ssf/stream`,
        status_endpoint: `${ISSUER}/ssf/status`,
        verification_endpoint: `${ISSUER}/ssf/verify`,
        authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6749' }],
      });
    });

    it('lets a receiver create its stream, once, and read it', async () => {
      const token = await receiverToken();
      const created = await json(token, 'POST', '/ssf/stream', {
        delivery: { method: 'urn:ietf:rfc:8935', endpoint_url: `${receiver.url}/events`, authorization_header: 'Bearer receiver-secret' },
        events_requested: [SESSION_REVOKED, CREDENTIAL_CHANGE, 'urn:example:unknown'],
        description: 'API 2',
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toBe('no-store');
      expect(created.body).toEqual({
        stream_id: expect.any(String),
        iss: ISSUER,
        aud: receiverClient,
        delivery: { method: 'urn:ietf:rfc:8935', endpoint_url: `${receiver.url}/events`, authorization_header: 'Bearer receiver-secret' },
        events_supported: [SESSION_REVOKED, CREDENTIAL_CHANGE],
        events_requested: [SESSION_REVOKED, CREDENTIAL_CHANGE, 'urn:example:unknown'],
        events_delivered: [SESSION_REVOKED, CREDENTIAL_CHANGE],
        description: 'API 2',
        min_verification_interval: 5,
      });
      streamId = created.body.stream_id;
      // The receiver's credential is stored sealed; a row written before sealing still reads.
      const [{ authorization_header: sealed }] = await sql<{ authorization_header: string }>(
        'SELECT authorization_header FROM ssf_streams WHERE stream_id = $1',
        [streamId],
      );
      expect(sealed).toMatch(/^sealed:v1:/);
      expect(sealed).not.toContain('receiver-secret');
      await sql('UPDATE ssf_streams SET authorization_header = $2 WHERE stream_id = $1', [streamId, 'Bearer receiver-secret']);
      expect((await json(token, 'GET', `/ssf/stream?stream_id=${streamId}`)).body).toEqual(created.body);
      await sql('UPDATE ssf_streams SET authorization_header = $2 WHERE stream_id = $1', [streamId, sealed]);
      expect((await json(token, 'POST', '/ssf/stream', { delivery: { method: 'urn:ietf:rfc:8935', endpoint_url: `${receiver.url}/other` } })).status).toBe(409);
      expect((await json(token, 'GET', '/ssf/stream')).body).toEqual([created.body]);
      expect((await json(token, 'GET', `/ssf/stream?stream_id=${streamId}`)).body).toEqual(created.body);
    });

    it('refuses a stream it would not push to, and poll delivery', async () => {
      const token = await receiverToken(otherReceiver);
      for (const delivery of [
        { method: 'urn:ietf:rfc:8935', endpoint_url: 'http://10.0.0.1/events' },
        { method: 'urn:ietf:rfc:8935', endpoint_url: 'ftp://127.0.0.1/events' },
        { method: 'urn:ietf:rfc:8935', endpoint_url: `${receiver.url}/events`, authorization_header: 'Bearer x\r\nX-Injected: 1' },
        { method: 'urn:ietf:rfc:8936' },
      ]) {
        const refused = await json(token, 'POST', '/ssf/stream', { delivery });
        expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'invalid_request' });
      }
      expect((await json(token, 'POST', '/ssf/stream', {})).status).toBe(400);
      expect((await json(token, 'GET', '/ssf/stream')).body).toEqual([]);
    });

    it('refuses other clients at the stream endpoints', async () => {
      const m2m = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
      const withoutSsf = await json(m2m.body.access_token, 'GET', `/ssf/stream?stream_id=${streamId}`);
      expect({ status: withoutSsf.status, error: withoutSsf.body.error }).toEqual({ status: 403, error: 'insufficient_scope' });
      expect(withoutSsf.headers.get('www-authenticate')).toContain('scope="ssf"');

      const other = await receiverToken(otherReceiver);
      for (const [method, path, body] of [
        ['GET', `/ssf/stream?stream_id=${streamId}`],
        ['PATCH', '/ssf/stream', { stream_id: streamId, description: 'mine now' }],
        ['DELETE', `/ssf/stream?stream_id=${streamId}`],
        ['GET', `/ssf/status?stream_id=${streamId}`],
        ['POST', '/ssf/status', { stream_id: streamId, status: 'disabled' }],
        ['POST', '/ssf/verify', { stream_id: streamId }],
      ] as const) {
        expect({ method, path, status: (await json(other, method, path, body)).status }).toEqual({ method, path, status: 404 });
      }
      const anonymous = await request(`${server.url}/ssf/stream`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe(`Bearer realm="${ISSUER}"`);
      const userToken = await requestToken(server.url, 'frontend', 'frontend-secret', {
        grant_type: 'password',
        username: 'bob',
        password: 'bob',
        scope: 'openid',
      });
      expect((await json(userToken.body.access_token, 'GET', '/ssf/stream')).status).toBe(401);
      expect((await json(await receiverToken(), 'GET', `/ssf/status?stream_id=${streamId}`)).body).toEqual({ stream_id: streamId, status: 'enabled' });
    });

    it('pushes a verification event, signed, with the authorization header the receiver asked for', async () => {
      expect((await json(await receiverToken(), 'POST', '/ssf/verify', { stream_id: streamId, state: 'state-1' })).status).toBe(204);
      const pushed = await receiver.waitFor((signal) => signal.path === '/events' && VERIFICATION in (payloadOf(signal.token).events as object));
      expect(pushed.contentType).toBe('application/secevent+jwt');
      expect(pushed.authorization).toBe('Bearer receiver-secret');
      const { payload, protectedHeader } = await jwtVerify(pushed.token, keys, { issuer: ISSUER, audience: receiverClient, typ: 'secevent+jwt' });
      expect(protectedHeader.kid).toEqual(expect.any(String));
      expect(payload).toEqual({
        iss: ISSUER,
        aud: receiverClient,
        iat: expect.any(Number),
        jti: expect.any(String),
        sub_id: { format: 'opaque', id: streamId },
        events: { [VERIFICATION]: { state: 'state-1' } },
      });
      expect((await json(await receiverToken(), 'POST', '/ssf/verify', { stream_id: streamId })).status).toBe(429);
    });

    it('tells the receiver of a session that ended and a password changed, for a user who used it', async () => {
      const username = uniqueName('user');
      const sub = await insertUser({ username, password: 'user-password' });
      await usesReceiver(username, 'user-password');
      const { browser, idToken } = await signedIn(username, 'user-password');
      expect((await browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: idToken })}`)).status).toBe(200);
      const revoked = await receiver.waitFor(isEvent(SESSION_REVOKED, sub));
      const { payload, protectedHeader } = await jwtVerify(revoked.token, keys, { issuer: ISSUER, audience: receiverClient, typ: 'secevent+jwt' });
      expect(protectedHeader.typ).toBe('secevent+jwt');
      expect(payload).toEqual({
        iss: ISSUER,
        aud: receiverClient,
        iat: expect.any(Number),
        jti: expect.any(String),
        txn: expect.any(String),
        sub_id: { format: 'iss_sub', iss: ISSUER, sub },
        events: { [SESSION_REVOKED]: { initiating_entity: 'user', event_timestamp: expect.any(Number) } },
      });
      expect(payload).not.toHaveProperty('sub');
      expect(payload).not.toHaveProperty('exp');

      const changed = await users(['set-password', username], 'a-new-password\n');
      expect(changed.code).toBe(0);
      const credential = await receiver.waitFor(isEvent(CREDENTIAL_CHANGE, sub));
      expect(payloadOf(credential.token).events).toEqual({
        [CREDENTIAL_CHANGE]: { credential_type: 'password', change_type: 'update', initiating_entity: 'admin', event_timestamp: expect.any(Number) },
      });

      // A passkey removed (here by the operator; the account page sends the same with initiating_entity user).
      await sql(
        "INSERT INTO passkeys (credential_id, subject_id, user_handle, public_key, name, authenticator_attachment) VALUES ($1, $2, 'handle', '\\x00', 'key', 'platform')",
        [uniqueName('credential'), sub],
      );
      expect((await users(['remove-passkeys', username])).code).toBe(0);
      const removed = await receiver.waitFor((signal) => isEvent(CREDENTIAL_CHANGE, sub)(signal) && signal !== credential);
      expect(payloadOf(removed.token).events).toEqual({
        [CREDENTIAL_CHANGE]: { credential_type: 'fido2-platform', change_type: 'delete', initiating_entity: 'admin', event_timestamp: expect.any(Number) },
      });
    });

    it('sends nothing about a user who never used the receiver', async () => {
      const stranger = uniqueName('stranger');
      const strangerSub = await insertUser({ username: stranger, password: 'stranger-password' });
      const known = uniqueName('known');
      const knownSub = await insertUser({ username: known, password: 'known-password' });
      await usesReceiver(known, 'known-password');
      // The stranger used another API (api1, through the demo frontend), never the receiver's.
      expect(
        (
          await requestToken(server.url, 'frontend', 'frontend-secret', {
            grant_type: 'password',
            username: stranger,
            password: 'stranger-password',
            scope: 'api1',
          })
        ).status,
      ).toBe(200);

      expect((await users(['set-password', stranger], 'another-password\n')).code).toBe(0);
      expect((await users(['set-password', known], 'another-password\n')).code).toBe(0);
      await receiver.waitFor(isEvent(CREDENTIAL_CHANGE, knownSub));
      expect(receiver.received.filter(isEvent(CREDENTIAL_CHANGE, strangerSub))).toEqual([]);
      expect((await sql('SELECT 1 FROM signal_recipients WHERE subject_id = $1 AND client_id = $2', [strangerSub, receiverClient])).length).toBe(0);
    });

    it('holds events while the stream is paused and delivers them when it is enabled again', async () => {
      const username = uniqueName('paused');
      const sub = await insertUser({ username, password: 'paused-password' });
      await usesReceiver(username, 'paused-password');
      const { browser, idToken } = await signedIn(username, 'paused-password');
      const token = await receiverToken();
      expect((await json(token, 'POST', '/ssf/status', { stream_id: streamId, status: 'paused', reason: 'maintenance' })).body).toEqual({
        stream_id: streamId,
        status: 'paused',
        reason: 'maintenance',
      });

      expect((await browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: idToken })}`)).status).toBe(200);
      // The same logout's logout token is delivered: delivery rounds ran, and held the stream's SET.
      await receiver.waitFor((signal) => isLogout(signal) && payloadOf(signal.token).sub === sub);
      expect(receiver.received.filter(isEvent(SESSION_REVOKED, sub))).toEqual([]);
      expect(await sql('SELECT event_type FROM signal_outbox WHERE stream_id = $1', [streamId])).toEqual([{ event_type: SESSION_REVOKED }]);
      const shown = await tollgate(['signals', '--json']);
      expect(shown.stdout).not.toContain('receiver-secret');
      expect(JSON.parse(shown.stdout).streams).toContainEqual(
        expect.objectContaining({ clientId: receiverClient, streamId, status: 'paused', statusReason: 'maintenance', pending: 1, authorizationHeader: true }),
      );

      expect((await json(token, 'POST', '/ssf/status', { stream_id: streamId, status: 'enabled' })).status).toBe(200);
      await receiver.waitFor(isEvent(SESSION_REVOKED, sub));
    });

    it("ends a disabled user's sessions: logout tokens, and session-revoked for each", async () => {
      const username = uniqueName('disabled');
      const sub = await insertUser({ username, password: 'disabled-password' });
      await usesReceiver(username, 'disabled-password');
      const { idToken } = await signedIn(username, 'disabled-password');
      const { sid } = payloadOf(idToken);

      const disabled = await users(['disable', username]);
      expect(disabled).toMatchObject({ code: 0, stdout: expect.stringContaining(`Ended 1 session(s) of ${username}.`) });
      const logout = await receiver.waitFor((signal) => isLogout(signal) && payloadOf(signal.token).sub === sub);
      expect(payloadOf(logout.token)).toMatchObject({ sid, aud: rp });
      const revoked = await receiver.waitFor(isEvent(SESSION_REVOKED, sub));
      expect(payloadOf(revoked.token).events).toEqual({ [SESSION_REVOKED]: { initiating_entity: 'admin', event_timestamp: expect.any(Number) } });
      expect(await sql('SELECT 1 FROM sign_in_sessions WHERE subject_id = $1', [sub])).toEqual([]);
    });

    it('drops the held events of a disabled stream, and lets the receiver delete it', async () => {
      const token = await receiverToken();
      expect((await json(token, 'POST', '/ssf/status', { stream_id: streamId, status: 'paused' })).status).toBe(200);
      expect((await json(token, 'POST', '/ssf/verify', { stream_id: streamId })).status).toBe(204);
      expect(await sql('SELECT 1 FROM signal_outbox WHERE stream_id = $1', [streamId])).toHaveLength(1);
      expect((await json(token, 'POST', '/ssf/status', { stream_id: streamId, status: 'disabled' })).status).toBe(200);
      expect(await sql('SELECT 1 FROM signal_outbox WHERE stream_id = $1', [streamId])).toEqual([]);

      const patched = await json(token, 'PATCH', '/ssf/stream', {
        stream_id: streamId,
        events_requested: [CREDENTIAL_CHANGE],
        iss: 'https://elsewhere.example',
      });
      expect(patched.status).toBe(400);
      const updated = await json(token, 'PATCH', '/ssf/stream', { stream_id: streamId, events_requested: [CREDENTIAL_CHANGE] });
      expect(updated.body).toMatchObject({
        events_delivered: [CREDENTIAL_CHANGE],
        description: 'API 2',
        delivery: { authorization_header: 'Bearer receiver-secret' },
      });
      const replaced = await json(token, 'PUT', '/ssf/stream', {
        stream_id: streamId,
        delivery: { method: 'urn:ietf:rfc:8935', endpoint_url: `${receiver.url}/events` },
      });
      expect(replaced.body).toMatchObject({ events_requested: [], events_delivered: [], delivery: { endpoint_url: `${receiver.url}/events` } });
      expect(replaced.body).not.toHaveProperty('description');

      expect((await json(token, 'DELETE', `/ssf/stream?stream_id=${streamId}`)).status).toBe(204);
      expect((await json(token, 'GET', '/ssf/stream')).body).toEqual([]);
    });
  });

  it('says so in discovery', async () => {
    const { body } = await request(`${server.url}/.well-known/openid-configuration`);
    expect(body).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
  });

  it('refuses a form body at the stream endpoints', async () => {
    const response = await postForm(`${server.url}/ssf/stream`, { delivery: 'x' }, { authorization: `Bearer ${await receiverToken()}` });
    expect({ status: response.status, error: response.body.error }).toEqual({ status: 400, error: 'invalid_request' });
  });
});
