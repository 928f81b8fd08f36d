import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import { UnusedClientPurger } from '../../src/endpoints/client-registration/unused-client.purger';
import { Browser, locationParameters, pkce } from '../support/browser';
import { ensureBuilt, ROOT, runToExit } from '../support/built-service';
import { sql, startTestServer, testDatabaseUrl, TEST_KEY_ENCRYPTION_KEY, type TestServer } from '../support/create-test-app';
import { basic, jwtPayload, postForm, request, type HttpResponse } from '../support/http';
import { payloadOf, SignalReceiver } from '../support/signal-receiver';

const CALLBACK = 'https://agent.example/callback';

function register(base: string, metadata: unknown, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return request(`${base}/connect/register`, {
    method: 'POST',
    body: typeof metadata === 'string' ? metadata : JSON.stringify(metadata),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Sends `raw` on a connection of its own, then shuts down the sending side (FIN) and reads what comes back until the server closes. */
function halfClosedExchange(base: string, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(base).port) }, () => socket.end(raw));
    let received = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer within 10 s; received: ${received}`)));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

function expectError(response: HttpResponse, status: number, error: string): void {
  expect({ status: response.status, error: response.body?.error }).toEqual({ status, error });
  expect(response.headers.get('cache-control')).toContain('no-store');
}

/** docs/agents.md: dynamic client registration (RFC 7591) and management (RFC 7592). */
describe('dynamic client registration, off by default', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 404 and advertises no registration_endpoint', async () => {
    expectError(await register(server.url, { redirect_uris: [CALLBACK] }), 404, 'invalid_request');
    expect((await request(`${server.url}/.well-known/openid-configuration`)).body.registration_endpoint).toBeUndefined();
  });
});

describe('dynamic client registration, open', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DYNAMIC_REGISTRATION: 'open', RATE_LIMIT_REGISTRATIONS: '0' });
  });
  afterAll(() => server.close());

  it('advertises the registration endpoint', async () => {
    expect((await request(`${server.url}/.well-known/openid-configuration`)).body.registration_endpoint).toBe('http://tollgate.test/connect/register');
  });

  it('takes application_type (MCP 2026-07-28 clients send it): native or web, web when absent, anything else invalid_client_metadata', async () => {
    const native = await register(server.url, {
      redirect_uris: ['http://127.0.0.1:8123/callback'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    });
    expect(native.status).toBe(201);
    expect(native.body.application_type).toBe('native');
    const read = await request(native.body.registration_client_uri.replace('http://tollgate.test', server.url), {
      headers: { authorization: `Bearer ${native.body.registration_access_token}` },
    });
    expect({ status: read.status, application_type: read.body.application_type }).toEqual({ status: 200, application_type: 'native' });
    expectError(
      await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', application_type: 'desktop' }),
      400,
      'invalid_client_metadata',
    );
  });

  it('registers a public client (201) that runs the code flow; grants and scopes are narrowed to the rules', async () => {
    const registered = await register(server.url, {
      client_name: 'Agent',
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      scope: 'openid profile offline_access api1',
      software_id: 'ignored',
    });
    expect(registered.status).toBe(201);
    expect(registered.headers.get('cache-control')).toContain('no-store');
    const body = registered.body;
    expect(body).toEqual({
      client_id: expect.stringMatching(/^dyn-[A-Za-z0-9_-]{24}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'Agent',
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'openid profile offline_access',
      application_type: 'web',
      registration_access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      registration_client_uri: `http://tollgate.test/connect/register/${body.client_id}`,
    });
    expect(Math.abs(body.client_id_issued_at - Date.now() / 1000)).toBeLessThan(60);

    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      client_id: body.client_id,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid profile',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const browser = new Browser();
    const login = await browser.get(`${server.url}/connect/authorize?${query}`);
    expect(login.status).toBe(200);
    const consent = await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' });
    expect(consent.status).toBe(200);
    const consentPage = await consent.text();
    expect(consentPage).toContain('Agent');
    const redirect = await browser.submit(server.url, consentPage, { decision: 'allow' });
    expect(redirect.status).toBe(302);
    const token = await postForm(`${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: body.client_id,
      code: locationParameters(redirect).code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    expect(jwtPayload(token.body.access_token).client_id).toBe(body.client_id);
  });

  it('returns a client_secret once for client_secret_basic (the default), and the client authenticates with it', async () => {
    const registered = await register(server.url, { redirect_uris: [CALLBACK] });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret: expect.any(String),
      client_secret_expires_at: 0,
    });
    const { client_id: clientId, client_secret: secret } = registered.body;
    // Authenticated, then refused the grant it may not use.
    const grant = await postForm(`${server.url}/connect/token`, { grant_type: 'client_credentials' }, { authorization: basic(clientId, secret) });
    expectError(grant, 400, 'unauthorized_client');
    const wrong = await postForm(`${server.url}/connect/token`, { grant_type: 'client_credentials' }, { authorization: basic(clientId, `${secret}x`) });
    expectError(wrong, 401, 'invalid_client');
    const read = await request(registered.body.registration_client_uri.replace('http://tollgate.test', server.url), {
      headers: { authorization: `Bearer ${registered.body.registration_access_token}` },
    });
    expect(read.status).toBe(200);
    expect(read.body.client_secret).toBeUndefined();
    const [stored] = await sql<{ value_hash: string }>('SELECT value_hash FROM client_secrets WHERE client_id = $1', [clientId]);
    expect(stored.value_hash).not.toContain(secret);
  });

  it('reads, updates and deletes a registration with its registration access token (RFC 7592)', async () => {
    const { body } = await register(server.url, { client_name: 'Before', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
    const uri = `${server.url}/connect/register/${body.client_id}`;
    const bearer = { authorization: `Bearer ${body.registration_access_token}` };

    const read = await request(uri, { headers: bearer });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(body);

    const wrong = await request(uri, { headers: { authorization: `Bearer ${'A'.repeat(43)}` } });
    expectError(wrong, 401, 'invalid_token');
    expect(wrong.headers.get('www-authenticate')).toContain('Bearer');
    expectError(await request(uri), 401, 'invalid_token');
    expectError(await request(`${server.url}/connect/register/dyn-unknown`, { headers: bearer }), 401, 'invalid_token');

    const put = (metadata: unknown) =>
      request(uri, { method: 'PUT', body: JSON.stringify(metadata), headers: { ...bearer, 'content-type': 'application/json' } });
    const updated = await put({ client_id: body.client_id, client_name: 'After', redirect_uris: ['https://agent.example/other'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      client_id: body.client_id,
      client_name: 'After',
      redirect_uris: ['https://agent.example/other'],
      token_endpoint_auth_method: 'none',
    });
    expect((await request(uri, { headers: bearer })).body.client_name).toBe('After');
    expectError(
      await put({ client_id: body.client_id, redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_basic' }),
      400,
      'invalid_client_metadata',
    );
    expectError(await put({ client_id: 'someone-else', redirect_uris: [CALLBACK] }), 400, 'invalid_client_metadata');
    expectError(await put({ client_id: body.client_id, redirect_uris: ['http://agent.example/cb'] }), 400, 'invalid_redirect_uri');

    const deleted = await request(uri, { method: 'DELETE', headers: bearer });
    expect(deleted.status).toBe(204);
    expectError(await request(uri, { headers: bearer }), 401, 'invalid_token');
    const token = await postForm(`${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: body.client_id,
      code: 'x',
      code_verifier: 'v'.repeat(43),
    });
    expectError(token, 401, 'invalid_client');
  });

  it('registers a back-channel logout URI (OpenID Connect Back-Channel Logout §2.2): the client hears when its session ends', async () => {
    const receiver = await SignalReceiver.start();
    try {
      const backchannel = { backchannel_logout_uri: `${receiver.url}/logout`, backchannel_logout_session_required: true };
      for (const [bad, description] of [
        [{ backchannel_logout_uri: `${receiver.url}/logout#x` }, 'fragment'],
        [{ backchannel_logout_uri: 'ftp://rp.example/logout' }, 'https'],
        [{ backchannel_logout_uri: 42 }, 'string'],
        [{ ...backchannel, backchannel_logout_session_required: 'yes' }, 'boolean'],
      ] as const) {
        const refused = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', ...bad });
        expectError(refused, 400, 'invalid_client_metadata');
        expect(refused.body.error_description).toContain(description);
      }
      const registered = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', scope: 'openid', ...backchannel });
      expect(registered.status).toBe(201);
      expect(registered.body).toMatchObject(backchannel);
      const clientId: string = registered.body.client_id;

      const { verifier, challenge } = pkce();
      const browser = new Browser();
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: CALLBACK,
        response_type: 'code',
        scope: 'openid',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const consent = await browser.submit(server.url, await (await browser.get(`${server.url}/connect/authorize?${query}`)).text(), {
        username: 'alice',
        password: 'alice',
      });
      const redirect = await browser.submit(server.url, await consent.text(), { decision: 'allow' });
      const code = locationParameters(redirect).code;
      const tokens = await postForm(`${server.url}/connect/token`, {
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
      });
      expect(tokens.status).toBe(200);
      const { sid } = jwtPayload(tokens.body.id_token);

      expect((await browser.get(`${server.url}/connect/endsession?${new URLSearchParams({ id_token_hint: tokens.body.id_token })}`)).status).toBe(200);
      const delivered = await receiver.waitFor((signal) => signal.path === '/logout' && payloadOf(signal.token).aud === clientId);
      expect(payloadOf(delivered.token)).toMatchObject({ aud: clientId, sid, events: { 'http://schemas.openid.net/event/backchannel-logout': {} } });

      // An update without it removes it.
      const headers = { authorization: `Bearer ${registered.body.registration_access_token}`, 'content-type': 'application/json' };
      const updated = await request(registered.body.registration_client_uri.replace('http://tollgate.test', server.url), {
        method: 'PUT',
        headers,
        body: JSON.stringify({ client_id: clientId, redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', scope: 'openid' }),
      });
      expect(updated.status).toBe(200);
      expect(updated.body).not.toHaveProperty('backchannel_logout_uri');
      expect(await sql('SELECT backchannel_logout_uri, backchannel_logout_session_required FROM clients WHERE client_id = $1', [clientId])).toEqual([
        { backchannel_logout_uri: null, backchannel_logout_session_required: false },
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('stores the JWK Set of a private_key_jwt client, and replaces it on update', async () => {
    const jwks = () => ({ keys: [{ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }), kid: 'agent-key' }] });
    const first = jwks();
    const { status, body } = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'private_key_jwt', jwks: first });
    expect(status).toBe(201);
    const stored = () => sql<{ jwks: unknown }>('SELECT jwks FROM clients WHERE client_id = $1', [body.client_id]);
    expect(await stored()).toEqual([{ jwks: first }]);

    const second = jwks();
    const updated = await request(`${server.url}/connect/register/${body.client_id}`, {
      method: 'PUT',
      body: JSON.stringify({ client_id: body.client_id, redirect_uris: [CALLBACK], token_endpoint_auth_method: 'private_key_jwt', jwks: second }),
      headers: { authorization: `Bearer ${body.registration_access_token}`, 'content-type': 'application/json' },
    });
    expect(updated.status).toBe(200);
    expect(await stored()).toEqual([{ jwks: second }]);
  });

  it('refuses bad redirect URIs with invalid_redirect_uri', async () => {
    expectError(await register(server.url, { client_name: 'x' }), 400, 'invalid_redirect_uri');
    expectError(await register(server.url, { redirect_uris: ['http://agent.example/cb'] }), 400, 'invalid_redirect_uri');
    expectError(await register(server.url, { redirect_uris: ['https://agent.example/cb#frag'] }), 400, 'invalid_redirect_uri');
    expectError(await register(server.url, { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://agent.example/${i}`) }), 400, 'invalid_redirect_uri');
  });

  it('refuses bad metadata with invalid_client_metadata, never a 500', async () => {
    const refused = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_post' });
    expectError(refused, 400, 'invalid_client_metadata');
    // The route's Bearer challenge is for token errors (RFC 6750 §3.1), not for the metadata.
    expect(refused.headers.get('www-authenticate')).toBeNull();
    expectError(
      await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://agent.example/jwks' }),
      400,
      'invalid_client_metadata',
    );
    expectError(await register(server.url, { redirect_uris: [CALLBACK], client_name: 'x'.repeat(101) }), 400, 'invalid_client_metadata');
    expectError(await register(server.url, '[]'), 400, 'invalid_client_metadata');
    expectError(await register(server.url, { redirect_uris: [CALLBACK], padding: 'x'.repeat(20_000) }), 400, 'invalid_client_metadata');
    const form = await postForm(`${server.url}/connect/register`, { redirect_uris: CALLBACK });
    expectError(form, 400, 'invalid_client_metadata');
    const broken = await request(`${server.url}/connect/register`, {
      method: 'POST',
      body: '{"redirect_uris":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
  });

  describe('refuses bodies no reader should guess at, never with a 500', () => {
    const rsaJwks = (bits: number) => ({
      keys: [{ ...generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'jwk' }), kid: `rsa-${bits}` }],
    });
    const privateKeyJwt = (jwks: unknown) => ({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'private_key_jwt', jwks });

    function expectMetadataError(response: HttpResponse, description: RegExp): void {
      expectError(response, 400, 'invalid_client_metadata');
      expect(response.body.error_description).toMatch(description);
    }

    it('JSON nested 10,000 levels deep (over the size limit as well), 5,000 or 33 levels, at registration and at an update', async () => {
      const nested = (depth: number) => `{"redirect_uris":["${CALLBACK}"],"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      expectMetadataError(await register(server.url, nested(10_000)), /at most 16384 bytes/);
      expectMetadataError(await register(server.url, nested(5_000)), /nested deeper than 32 levels/);
      expectMetadataError(await register(server.url, nested(32)), /nested deeper than 32 levels/);
      expect((await register(server.url, nested(31))).status).toBe(201);
      const { body } = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
      const update = await request(`${server.url}/connect/register/${body.client_id}`, {
        method: 'PUT',
        body: `{"client_id":"${body.client_id}","redirect_uris":["${CALLBACK}"],"x":${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}}`,
        headers: { authorization: `Bearer ${body.registration_access_token}`, 'content-type': 'application/json' },
      });
      expectMetadataError(update, /nested deeper than 32 levels/);
    });

    it('a member named twice, at registration and at an update (JSON parsers disagree on which one counts)', async () => {
      expectMetadataError(
        await register(server.url, `{"redirect_uris":["${CALLBACK}"],"token_endpoint_auth_method":"none","token_endpoint_auth_method":"client_secret_basic"}`),
        /named twice/,
      );
      expectMetadataError(await register(server.url, `{"redirect_uris":["${CALLBACK}"],"jwks":{"keys":[{"kty":"EC","kty":"RSA"}]}}`), /named twice/);
      const { body } = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
      const update = await request(`${server.url}/connect/register/${body.client_id}`, {
        method: 'PUT',
        body: `{"client_id":"${body.client_id}","redirect_uris":["${CALLBACK}"],"redirect_uris":["https://attacker.example/cb"]}`,
        headers: { authorization: `Bearer ${body.registration_access_token}`, 'content-type': 'application/json' },
      });
      expectMetadataError(update, /named twice/);
    });

    it('a charset other than UTF-8 (RFC 8259 §8.1), whatever the bytes', async () => {
      const metadata = { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' };
      for (const contentType of ['application/json; charset=utf-16', 'application/json; charset=UTF-16LE', 'application/json;charset=iso-8859-1']) {
        const refused = await register(server.url, metadata, { 'content-type': contentType });
        expectError(refused, 400, 'invalid_request');
        expect(refused.body.error_description).toMatch(/must be UTF-8/);
      }
      const utf16 = await request(`${server.url}/connect/register`, {
        method: 'POST',
        body: Buffer.from(`\ufeff${JSON.stringify(metadata)}`, 'utf16le'),
        headers: { 'content-type': 'application/json; charset=utf-16' },
      });
      expectError(utf16, 400, 'invalid_request');
      expect(utf16.body.error_description).toMatch(/must be UTF-8/);
      for (const contentType of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'Application/JSON']) {
        expect((await register(server.url, metadata, { 'content-type': contentType })).status).toBe(201);
      }
    });

    it('RSA keys under 2048 bits (RFC 7518 §3.3), at registration and at an update', async () => {
      expectMetadataError(await register(server.url, privateKeyJwt(rsaJwks(512))), /RSA key .*2048 bits/);
      expectMetadataError(await register(server.url, privateKeyJwt(rsaJwks(1024))), /RSA key .*2048 bits/);
      const registered = await register(server.url, privateKeyJwt(rsaJwks(2048)));
      expect(registered.status).toBe(201);
      const update = await request(`${server.url}/connect/register/${registered.body.client_id}`, {
        method: 'PUT',
        body: JSON.stringify({ client_id: registered.body.client_id, ...privateKeyJwt(rsaJwks(1024)) }),
        headers: { authorization: `Bearer ${registered.body.registration_access_token}`, 'content-type': 'application/json' },
      });
      expectMetadataError(update, /RSA key .*2048 bits/);
    });
  });

  it('answers an RFC 7592 request whose client shuts down its sending side after the request (RFC 9112 §9.6)', async () => {
    const { body } = await register(server.url, { client_name: 'Half', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
    const path = `/connect/register/${body.client_id}`;
    const authorization = `Authorization: Bearer ${body.registration_access_token}`;
    const read = await halfClosedExchange(server.url, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization}\r\n\r\n`);
    expect(read).toMatch(/^HTTP\/1\.1 200 /);
    expect(read).toContain('"client_name":"Half"');
    const update = JSON.stringify({ client_id: body.client_id, client_name: 'Closed', redirect_uris: [CALLBACK] });
    const put = await halfClosedExchange(
      server.url,
      `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(update)}\r\n\r\n${update}`,
    );
    expect(put).toMatch(/^HTTP\/1\.1 200 /);
    expect(put).toContain('"client_name":"Closed"');
  });

  it('marks a registered client used when it is looked up and its mark is over an hour old', async () => {
    const { body } = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
    await sql("UPDATE clients SET last_used_at = now() - interval '2 hours' WHERE client_id = $1", [body.client_id]);
    const token = await postForm(`${server.url}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: body.client_id,
      code: 'x',
      code_verifier: 'v'.repeat(43),
    });
    expectError(token, 400, 'invalid_grant');
    const [row] = await sql<{ recent: boolean }>("SELECT last_used_at > now() - interval '1 minute' AS recent FROM clients WHERE client_id = $1", [
      body.client_id,
    ]);
    expect(row.recent).toBe(true);
  });

  it('removes a registered client unused for DYNAMIC_CLIENT_EXPIRY_DAYS', async () => {
    const used = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
    const unused = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
    await sql("UPDATE clients SET last_used_at = now() - interval '31 days', created_at = now() - interval '40 days' WHERE client_id = $1", [
      unused.body.client_id,
    ]);
    expect(await server.app.get(UnusedClientPurger).purge()).toBeGreaterThanOrEqual(1);
    const remaining = await sql<{ client_id: string }>('SELECT client_id FROM clients WHERE client_id = ANY($1)', [
      [used.body.client_id, unused.body.client_id],
    ]);
    expect(remaining.map((row) => row.client_id)).toEqual([used.body.client_id]);
  });
});

describe('dynamic client registration, throttled per address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DYNAMIC_REGISTRATION: 'open', RATE_LIMIT_REGISTRATIONS: '2' });
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After once the address is over its budget', async () => {
    expect((await register(server.url, { redirect_uris: [CALLBACK] })).status).toBe(201);
    expect((await register(server.url, { client_name: 'bad' })).status).toBe(400);
    const refused = await register(server.url, { redirect_uris: [CALLBACK] });
    expectError(refused, 429, 'temporarily_unavailable');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('dynamic client registration with initial access tokens', () => {
  let server: TestServer;
  beforeAll(async () => {
    [server] = await Promise.all([startTestServer({ DYNAMIC_REGISTRATION: 'token', RATE_LIMIT_REGISTRATIONS: '0' }), ensureBuilt()]);
  }, 120_000);
  afterAll(() => server.close());

  async function tollgate(...argv: string[]) {
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: testDatabaseUrl(), KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
    return runToExit(spawn(process.execPath, [join(ROOT, 'dist/cli/tollgate.js'), ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }), 60_000);
  }

  it('refuses a registration without a token, or with a wrong one, and accepts one an operator created', async () => {
    const missing = await register(server.url, { redirect_uris: [CALLBACK] });
    expectError(missing, 401, 'invalid_token');
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expectError(await register(server.url, { redirect_uris: [CALLBACK] }, { authorization: `Bearer ${'B'.repeat(43)}` }), 401, 'invalid_token');

    const created = await tollgate('registration-tokens', 'create', '--description', 'agents', '--expires-in-days', '1');
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await sql<{ token_hash: string }>("SELECT token_hash FROM registration_tokens WHERE description = 'agents'");
    expect(stored.token_hash).not.toBe(token);

    const registered = await register(server.url, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }, { authorization: `Bearer ${token}` });
    expect(registered.status).toBe(201);

    const listed = await tollgate('registration-tokens', 'list', '--json');
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(token);
    expect(listed.stdout).not.toContain(stored.token_hash);
    const { id } = (JSON.parse(listed.stdout) as { id: string; description: string }[]).find((entry) => entry.description === 'agents')!;
    expect((await tollgate('registration-tokens', 'revoke', id)).code).toBe(0);
    expectError(await register(server.url, { redirect_uris: [CALLBACK] }, { authorization: `Bearer ${token}` }), 401, 'invalid_token');
  });
});
