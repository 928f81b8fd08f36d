import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { ISSUER, sql, TEST_KEY_ENCRYPTION_KEY, testDatabaseUrl } from '../support/create-test-app';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { ensureBuilt, freePort, MAIN, ROOT } from '../support/built-service';
import { basic, postForm, request, requestToken, type HttpResponse } from '../support/http';

const INTERNALS = /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+|QueryFailedError|TypeError|\bSELECT\b|\bINSERT\b|\bUPDATE\b|\bFROM\b|\bstack\b/;

/**
 * No leaks: the built service, started as `npm start` does with LOG_LEVEL=trace, serves a
 * full run (password, client credentials, delegation, token exchange, userinfo, introspection,
 * revocation, refresh, bad secrets up to the rate limit, forged and expired tokens, tokens in query
 * strings, malformed HTTP, a forced 500) while every byte it writes to stdout and stderr is kept.
 * No client secret, password, secret hash, access token, refresh token or Authorization header
 * value may appear in it, in any encoding we could think of; no error response may carry a stack
 * trace or SQL.
 */
describe('no secret, token or hash in any log line of a full run', () => {
  let service: ChildProcess;
  let baseUrl: string;
  let port: number;
  let output = '';
  const errorBodies: { where: string; body: string }[] = [];
  /** Everything that must never be logged, with what it is. */
  const secrets = new Map<string, string>();
  const remember = (what: string, value: string | undefined) => {
    if (value) secrets.set(value, what);
  };

  const clientId = uniqueName('leaky-client');
  const clientSecret = `client-secret-${randomBytes(12).toString('hex')}`;
  const username = uniqueName('leaky-user');
  const password = `password-${randomBytes(12).toString('hex')}`;
  const brokenUser = uniqueName('broken-user');
  const brokenPassword = `password-${randomBytes(12).toString('hex')}`;

  async function call(where: string, response: Promise<HttpResponse>): Promise<HttpResponse> {
    const result = await response;
    if (result.status >= 400) errorBodies.push({ where, body: typeof result.body === 'string' ? result.body : JSON.stringify(result.body) });
    return result;
  }
  const token = (where: string, id: string, secret: string, form: Record<string, string>) => {
    remember('an Authorization header value', basic(id, secret).slice('Basic '.length));
    return call(where, requestToken(baseUrl, id, secret, form));
  };
  const bearer = (where: string, accessToken: string, path = '/connect/userinfo') =>
    call(where, request(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}` } }));

  beforeAll(async () => {
    await ensureBuilt();
    for (const [id, secret] of [
      ['frontend', 'frontend-secret'],
      ['api1', 'api1-secret'],
      ['m2m', 'm2m-secret'],
      [clientId, clientSecret],
    ]) {
      remember(`the client secret of ${id}`, secret);
      remember(`the secret hash of ${id}`, createHash('sha256').update(secret).digest('base64'));
      remember(`the secret hash of ${id} (hex)`, createHash('sha256').update(secret).digest('hex'));
      remember(`the Basic credentials of ${id}`, basic(id, secret).slice('Basic '.length));
    }
    // The demo users' passwords equal their usernames, which may be logged: these users' may not.
    remember('a password', password);
    remember('the key-encryption key', TEST_KEY_ENCRYPTION_KEY);
    remember('a password', brokenPassword);
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    service = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        PORT: String(port),
        HOST: '127.0.0.1',
        ISSUER,
        DATABASE_URL: testDatabaseUrl(),
        // The key the in-process test servers seal signing keys with: they share this database.
        KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
        DATABASE_POOL_SIZE: '4',
        SEED_DEMO: 'true',
        LOG_LEVEL: 'trace',
        RATE_LIMIT_AUTH_FAILURES: '5',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    service.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await waitUntilServing(`${baseUrl}/health/live`, service, () => output);
    // The service has migrated the run's database by now.
    await insertClient({
      clientId,
      secrets: [{ secret: clientSecret }],
      grantTypes: ['client_credentials', 'password', 'refresh_token'],
      scopes: ['openid', 'profile', 'api1', 'offline_access'],
    });
    await insertUser({ username, password, claims: { name: 'Leaky User' } });
    await insertUser({ username: brokenUser, password: brokenPassword, claims: { name: 'Broken User' } });
    for (const { password_hash: hash } of await sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE username IN ($1, $2)', [
      username,
      brokenUser,
    ])) {
      remember('a password hash', hash.split('$').at(-1));
    }
  }, 240_000);

  afterAll(async () => {
    if (service && service.exitCode === null) await stop(service);
  });

  it('serves a full run, good and bad requests alike', async () => {
    // Good flows.
    const alice = await token('password grant', 'frontend', 'frontend-secret', {
      grant_type: 'password',
      username: 'alice',
      password: 'alice',
      scope: 'openid profile email role api1 offline_access',
    });
    expect(alice.status).toBe(200);
    remember('an access token', alice.body.access_token);
    remember('a refresh token', alice.body.refresh_token);
    const own = await token('password grant, own client and user', clientId, clientSecret, {
      grant_type: 'password',
      username,
      password,
      scope: 'openid profile api1 offline_access',
    });
    expect(own.status).toBe(200);
    remember('an access token', own.body.access_token);
    remember('a refresh token', own.body.refresh_token);
    const m2m = await call(
      'client_credentials, posted secret',
      postForm(`${baseUrl}/connect/token`, { grant_type: 'client_credentials', client_id: 'm2m', client_secret: 'm2m-secret', scope: 'api1' }),
    );
    expect(m2m.status).toBe(200);
    remember('an access token', m2m.body.access_token);
    const delegated = await token('delegation', 'api1', 'api1-secret', { grant_type: 'delegation', token: alice.body.access_token, scope: 'openid api2' });
    expect(delegated.status).toBe(200);
    remember('an access token', delegated.body.access_token);
    const exchanged = await token('token exchange', 'api1', 'api1-secret', {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: alice.body.access_token,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      scope: 'api2',
    });
    expect(exchanged.status).toBe(200);
    remember('an access token', exchanged.body.access_token);
    expect((await bearer('userinfo', alice.body.access_token)).status).toBe(200);
    expect((await bearer('userinfo, delegated', delegated.body.access_token)).status).toBe(200);
    expect((await call('userinfo, token in the body', postForm(`${baseUrl}/connect/userinfo`, { access_token: alice.body.access_token }))).status).toBe(200);
    const refreshed = await token('refresh', clientId, clientSecret, { grant_type: 'refresh_token', refresh_token: own.body.refresh_token });
    expect(refreshed.status).toBe(200);
    remember('an access token', refreshed.body.access_token);
    remember('a refresh token', refreshed.body.refresh_token);
    const introspected = await call(
      'introspection',
      postForm(`${baseUrl}/connect/introspect`, { token: alice.body.access_token }, { authorization: basic('frontend', 'frontend-secret') }),
    );
    expect({ status: introspected.status, active: introspected.body.active }).toEqual({ status: 200, active: true });
    const refreshIntrospected = await call(
      'introspection of a refresh token',
      postForm(`${baseUrl}/connect/introspect`, { token: alice.body.refresh_token }, { authorization: basic('frontend', 'frontend-secret') }),
    );
    expect({ status: refreshIntrospected.status, active: refreshIntrospected.body.active }).toEqual({ status: 200, active: true });
    expect(
      (
        await call(
          'revocation of a refresh token',
          postForm(
            `${baseUrl}/connect/revocation`,
            { token: refreshed.body.refresh_token, token_type_hint: 'refresh_token' },
            { authorization: basic(clientId, clientSecret) },
          ),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await call(
          'revocation of an access token',
          postForm(`${baseUrl}/connect/revocation`, { token: delegated.body.access_token }, { authorization: basic('api1', 'api1-secret') }),
        )
      ).status,
    ).toBe(200);

    // Bad tokens and tokens where they do not belong.
    const [header, payload] = alice.body.access_token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '2' })).toString('base64url')}.${alice.body.access_token.split('.')[2]}`;
    remember('a forged access token', forged);
    expect((await token('delegation, forged token', 'api1', 'api1-secret', { grant_type: 'delegation', token: forged, scope: 'api2' })).status).toBe(400);
    expect((await bearer('userinfo, forged token', forged)).status).toBe(401);
    expect((await bearer('userinfo, revoked token', delegated.body.access_token)).status).toBe(401);
    expect((await call('userinfo, token in the query', request(`${baseUrl}/connect/userinfo?access_token=${alice.body.access_token}`))).status).toBe(401);
    expect(
      (
        await call(
          'token endpoint, secret in the query',
          request(`${baseUrl}/connect/token?client_secret=m2m-secret&refresh_token=${alice.body.refresh_token}`, { method: 'POST' }),
        )
      ).status,
    ).toBe(400);
    expect(
      (await token('refresh, rotated token reused', clientId, clientSecret, { grant_type: 'refresh_token', refresh_token: own.body.refresh_token })).status,
    ).toBe(400);
    expect(
      (
        await call(
          'userinfo, malformed header',
          request(`${baseUrl}/connect/userinfo`, { headers: { authorization: `Bearer ${alice.body.access_token} extra` } }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await token('password grant, wrong password', clientId, clientSecret, {
          grant_type: 'password',
          username,
          password: `${password}-wrong`,
          scope: 'openid',
        })
      ).status,
    ).toBe(400);
    remember('a wrong password', `${password}-wrong`);

    // Malformed HTTP that carries credentials: Node's parser refuses it before any route runs.
    const rawBasic = basic('m2m', 'm2m-secret');
    expect(await rawStatus(port, `POST /connect/token HTTP/1.1\r\nHost: x\r\nAuthorization: ${rawBasic}\r\nX-Bad: a\u0001b\r\nContent-Length: 0\r\n\r\n`)).toBe(
      400,
    );
    expect(
      await rawStatus(
        port,
        `GET /connect/userinfo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${alice.body.access_token}\r\nX-Pad: ${'p'.repeat(17 * 1024)}\r\n\r\n`,
      ),
    ).toBe(431);

    // A token in the URL path is refused like any unknown route, and its path is not logged as sent.
    expect((await bearer('userinfo, token in the path', alice.body.access_token, `/connect/userinfo/${alice.body.access_token}`)).status).toBe(404);

    // A forced 500: a refresh token row whose auth_time is infinity, which the refresh grant cannot read.
    const broken = await token('password grant, refresh token about to break', clientId, clientSecret, {
      grant_type: 'password',
      username: brokenUser,
      password: brokenPassword,
      scope: 'openid profile offline_access',
    });
    expect(broken.status).toBe(200);
    remember('an access token', broken.body.access_token);
    remember('a refresh token', broken.body.refresh_token);
    const brokenHash = createHash('sha256').update(broken.body.refresh_token).digest('base64url');
    await sql(`UPDATE refresh_tokens SET auth_time = 'infinity' WHERE token_hash = $1`, [brokenHash]);
    const fault = await token('refresh, corrupt refresh token row', clientId, clientSecret, {
      grant_type: 'refresh_token',
      refresh_token: broken.body.refresh_token,
    });
    expect({ status: fault.status, body: fault.body }).toEqual({
      status: 500,
      body: { error: 'server_error', error_description: 'An unexpected error occurred' },
    });

    // Bad secrets last: they run into the failed-authentication budget (5 per address and client here).
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const wrongSecret = `wrong-secret-${randomBytes(8).toString('hex')}`;
      remember('a wrong client secret', wrongSecret);
      remember('a wrong secret hash', createHash('sha256').update(wrongSecret).digest('base64'));
      statuses.push((await token('bad secret', attempt === 0 ? 'm2m' : clientId, wrongSecret, { grant_type: 'client_credentials' })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    const malformedBasic = `Basic ${Buffer.from(`${clientId}-secret-without-colon`).toString('base64')}`;
    remember('a malformed Authorization header value', malformedBasic.slice('Basic '.length));
    await call('malformed Basic header', postForm(`${baseUrl}/connect/token`, { grant_type: 'client_credentials' }, { authorization: malformedBasic }));
  });

  it('wrote no secret, password, hash, token or Authorization header value to stdout or stderr', async () => {
    await stop(service);
    const lines = output.split('\n').filter((line) => line.length > 0);
    // The capture is real: request logs, debug lines, the audit trail, the fault's stack trace.
    expect(output).toMatch(/"level":20,.*"client error"/);
    expect(output).toContain('/connect/token');
    expect(output).toContain('client.authentication_failed');
    expect(output).toMatch(/server_error: TypeError/);
    const leaks: string[] = [];
    for (const [value, what] of secrets) {
      for (const [encoding, text] of encodings(value)) {
        const line = lines.find((candidate) => candidate.includes(text));
        if (line) leaks.push(`${what} (${encoding}) in: ${line.slice(0, 300)}`);
      }
    }
    expect(leaks).toEqual([]);
    console.log(`no-leaks: ${lines.length} log lines checked against ${secrets.size} secrets, none found`);
  });

  it('answered every error without a stack trace or SQL', () => {
    expect(errorBodies.length).toBeGreaterThan(15);
    expect(errorBodies.filter(({ body }) => INTERNALS.test(body))).toEqual([]);
  });
});

/** A value as it could show up in a log: as is, URL-encoded, JSON-escaped, as bytes, and a JWT's signature alone. */
function encodings(value: string): [string, string][] {
  const forms: [string, string][] = [
    ['as is', value],
    ['URL-encoded', encodeURIComponent(value)],
    ['JSON-escaped', JSON.stringify(value).slice(1, -1)],
    ['as a byte list', [...Buffer.from(value)].join(',')],
  ];
  const segments = value.split('.');
  if (segments.length === 3 && segments[2].length > 20) forms.push(['JWT signature', segments[2]]);
  return forms;
}

async function rawStatus(port: number, text: string): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolveStatus(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
    socket.on('error', reject);
    socket.on('connect', () => socket.write(Buffer.from(text, 'latin1')));
  });
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  throw new Error(`the service did not start within 60 s:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null) return resolveStop();
    child.once('exit', () => resolveStop());
    child.kill('SIGTERM');
  });
}
