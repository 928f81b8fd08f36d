import { SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import { SigningKeyStore } from '../../src/tokens/keys/signing-key.store';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { insertUser, uniqueName } from '../support/fixtures';
import { jwtPayload, postForm, request, requestToken, userAccessToken, type HttpResponse } from '../support/http';

const REALM = `realm="${ISSUER}"`;
const ALL_IDENTITY_SCOPES = 'openid profile email role';
const DEMO_UPDATED_AT = Date.parse('2026-01-01T00:00:00Z') / 1000;

const ALICE_PROFILE = { name: 'Alice Smith', given_name: 'Alice', family_name: 'Smith', preferred_username: 'alice', updated_at: DEMO_UPDATED_AT };
const ALICE_EMAIL = { email: 'alice@example.com', email_verified: true };
const BOB_PROFILE = { name: 'Bob Jones', given_name: 'Bob', family_name: 'Jones', preferred_username: 'bob', updated_at: DEMO_UPDATED_AT };

function expectBearerError(response: HttpResponse, status: number, error: string, description: string, extra = ''): void {
  expect({ status: response.status, body: response.body }).toEqual({ status, body: { error, error_description: description } });
  expect(response.headers.get('www-authenticate')).toBe(`Bearer ${REALM}, error="${error}", error_description="${description}"${extra}`);
  expectErrorHeaders(response);
}

/** A 401 from access-token validation (docs/tokens.md#validation): the description is the validator's, the same in header and body. */
function expectInvalidToken(response: HttpResponse): void {
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
  expectBearerError(response, 401, 'invalid_token', response.body.error_description);
}

function expectNoTokenChallenge(response: HttpResponse): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status: 401,
    body: { error: 'invalid_token', error_description: 'No access token was presented' },
  });
  // RFC 6750 §3.1: a request without a token gets the realm and no error code.
  expect(response.headers.get('www-authenticate')).toBe(`Bearer ${REALM}`);
  expectErrorHeaders(response);
}

function expectErrorHeaders(response: HttpResponse): void {
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  expect(response.headers.get('cache-control')).toBe('no-store');
}

function expectClaims(response: HttpResponse, claims: Record<string, unknown>): void {
  expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: claims });
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('www-authenticate')).toBeNull();
}

describe('/connect/userinfo', () => {
  let server: TestServer;
  let userinfo: string;
  let alice: string;
  const getUserInfo = (authorization?: string, url = userinfo) => request(url, { headers: authorization === undefined ? {} : { authorization } });

  beforeAll(async () => {
    // Users are read afresh on every request here; the cached path has its own test below.
    server = await startTestServer({ CACHE_TTL_SECONDS: '0' });
    userinfo = `${server.url}/connect/userinfo`;
    alice = await userAccessToken(server.url, 'alice', ALL_IDENTITY_SCOPES);
  });
  afterAll(() => server.close());

  /** A token signed with the service's own key, for claims no grant would issue. */
  async function signedWithServiceKey(claims: Record<string, unknown>): Promise<string> {
    const key = server.app.get(SigningKeyStore).signingKey();
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: ISSUER, aud: 'api1', client_id: 'frontend', iat: now, nbf: now, exp: now + 300, jti: randomBytes(8).toString('hex'), ...claims })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid })
      .sign(key.privateKey);
  }

  /** A user of its own, with a token, for tests that change the user. */
  async function ownUserWithToken(scope = ALL_IDENTITY_SCOPES): Promise<{ subjectId: string; token: string }> {
    const username = uniqueName('userinfo');
    const subjectId = await insertUser({ username, password: username, claims: { name: 'Before Change' }, roles: ['user'] });
    return { subjectId, token: await userAccessToken(server.url, username, scope) };
  }

  describe('row 1: no token → 401 with a bare Bearer challenge', () => {
    it('answers a GET without Authorization', async () => {
      expectNoTokenChallenge(await getUserInfo());
    });

    it('answers a POST without a token', async () => {
      expectNoTokenChallenge(await postForm(userinfo, { scope: 'openid' }));
    });

    it('ignores a valid token in the query string (RFC 6750 §2.3 is not supported)', async () => {
      expectNoTokenChallenge(await getUserInfo(undefined, `${userinfo}?access_token=${alice}`));
      expectNoTokenChallenge(await postForm(`${userinfo}?access_token=${alice}`, {}));
    });

    it('ignores access_token in a POST body that is not form-encoded', async () => {
      const response = await request(userinfo, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ access_token: alice }),
      });
      expectNoTokenChallenge(response);
    });

    it('treats a well-formed header of another scheme as no token', async () => {
      expectNoTokenChallenge(await getUserInfo(`Basic ${Buffer.from('frontend:frontend-secret').toString('base64')}`));
    });
  });

  describe('row 2: malformed request → 400 invalid_request', () => {
    it.each([
      ['Bearer with no token', 'Bearer', 'the Bearer authorization header carries no token'],
      ['two tokens after Bearer', 'Bearer abc def', 'the Bearer authorization header is malformed'],
      ['another scheme with broken syntax', 'Basic !!not-base64!!', 'the Authorization header is malformed'],
    ])('refuses %s', async (_, authorization, description) => {
      expectBearerError(await getUserInfo(authorization), 400, 'invalid_request', description);
    });

    it('refuses a token in both the header and the body, before validating it', async () => {
      const response = await postForm(userinfo, { access_token: 'garbage' }, { authorization: `Bearer ${alice}` });
      expectBearerError(response, 400, 'invalid_request', 'the access token was sent in more than one place');
    });

    it('refuses a repeated access_token body parameter', async () => {
      const response = await postForm(userinfo, { access_token: [alice, alice] });
      expectBearerError(response, 400, 'invalid_request', 'parameter access_token must not be repeated');
    });

    it('refuses an empty access_token body parameter', async () => {
      expectBearerError(await postForm(userinfo, { access_token: '' }), 400, 'invalid_request', 'parameter access_token is empty');
    });
  });

  describe('row 3: invalid token, no sub, unknown or disabled user → 401 invalid_token', () => {
    it('refuses a token that is not a JWT', async () => {
      expectInvalidToken(await getUserInfo('Bearer not-a-jwt'));
    });

    it('refuses a token whose payload was altered', async () => {
      const [header, payload, signature] = alice.split('.');
      const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '2' })).toString('base64url');
      expectInvalidToken(await getUserInfo(`Bearer ${header}.${altered}.${signature}`));
    });

    it('refuses an expired token', async () => {
      const expired = await signedWithServiceKey({ sub: '1', scope: 'openid', iat: 1_700_000_000, nbf: 1_700_000_000, exp: 1_700_000_300 });
      expectInvalidToken(await getUserInfo(`Bearer ${expired}`));
    });

    it('refuses a client-credentials token', async () => {
      const m2m = await requestToken(server.url, 'm2m', 'm2m-secret', { grant_type: 'client_credentials', scope: 'api1' });
      expect(m2m.status).toBe(200);
      const response = await getUserInfo(`Bearer ${m2m.body.access_token}`);
      expectBearerError(response, 401, 'invalid_token', 'the access token does not represent a user');
    });

    it('refuses a token with openid but no sub as invalid_token, not insufficient_scope', async () => {
      const token = await signedWithServiceKey({ scope: 'openid profile' });
      expectBearerError(await getUserInfo(`Bearer ${token}`), 401, 'invalid_token', 'the access token does not represent a user');
    });

    it('refuses the token of a user disabled after it was issued', async () => {
      const { subjectId, token } = await ownUserWithToken();
      expect((await getUserInfo(`Bearer ${token}`)).status).toBe(200);
      await sql('UPDATE users SET enabled = false WHERE subject_id = $1', [subjectId]);
      expectBearerError(await getUserInfo(`Bearer ${token}`), 401, 'invalid_token', 'the user of the access token is unknown or disabled');
    });

    it('refuses the token of a user deleted after it was issued', async () => {
      const { subjectId, token } = await ownUserWithToken();
      await sql('DELETE FROM users WHERE subject_id = $1', [subjectId]);
      expectBearerError(await getUserInfo(`Bearer ${token}`), 401, 'invalid_token', 'the user of the access token is unknown or disabled');
    });

    it("answers a disabled user's token without openid with 401, not 403 (rows are checked in order)", async () => {
      const { subjectId, token } = await ownUserWithToken('api1');
      await sql('UPDATE users SET enabled = false WHERE subject_id = $1', [subjectId]);
      expectBearerError(await getUserInfo(`Bearer ${token}`), 401, 'invalid_token', 'the user of the access token is unknown or disabled');
    });
  });

  describe('row 4: no openid scope → 403 insufficient_scope', () => {
    it.each(['api1', 'profile email role api1'])('refuses alice\'s token with scope "%s"', async (scope) => {
      const token = await userAccessToken(server.url, 'alice', scope);
      const response = await getUserInfo(`Bearer ${token}`);
      expectBearerError(response, 403, 'insufficient_scope', 'the access token lacks the openid scope', ', scope="openid"');
    });
  });

  describe('claims by scope', () => {
    it.each([
      ['alice', 'openid', { sub: '1' }],
      ['alice', 'openid profile', { sub: '1', ...ALICE_PROFILE }],
      ['alice', 'openid email', { sub: '1', ...ALICE_EMAIL }],
      ['alice', ALL_IDENTITY_SCOPES, { sub: '1', ...ALICE_PROFILE, ...ALICE_EMAIL, role: ['admin', 'user'] }],
      ['bob', 'openid', { sub: '2' }],
      ['bob', 'openid profile', { sub: '2', ...BOB_PROFILE }],
      // bob has no email: neither email nor email_verified appears, not even as null.
      ['bob', 'openid email', { sub: '2' }],
      ['bob', ALL_IDENTITY_SCOPES, { sub: '2', ...BOB_PROFILE, role: ['user'] }],
    ])('returns exactly %s\'s claims for "%s"', async (username, scope, claims) => {
      const token = await userAccessToken(server.url, username, scope);
      expectClaims(await getUserInfo(`Bearer ${token}`), claims);
    });

    it('ignores API scopes in the token', async () => {
      const token = await userAccessToken(server.url, 'bob', 'openid api1');
      expectClaims(await getUserInfo(`Bearer ${token}`), { sub: '2' });
    });

    it('reads the claims from the user store at request time, not from the token', async () => {
      const { subjectId, token } = await ownUserWithToken();
      await sql(`UPDATE users SET claims = '{"name": "After Change"}', updated_at = '2026-02-01T00:00:00Z' WHERE subject_id = $1`, [subjectId]);
      expectClaims(await getUserInfo(`Bearer ${token}`), {
        sub: subjectId,
        name: 'After Change',
        updated_at: Date.parse('2026-02-01T00:00:00Z') / 1000,
        role: ['user'],
      });
    });
  });

  describe('token placement', () => {
    it.each(['bearer', 'BEARER', 'bEaReR'])('accepts the scheme written %s', async (scheme) => {
      expectClaims(await getUserInfo(`${scheme} ${alice}`), { sub: '1', ...ALICE_PROFILE, ...ALICE_EMAIL, role: ['admin', 'user'] });
    });

    it('serves POST with the token in the Authorization header', async () => {
      const response = await request(userinfo, { method: 'POST', headers: { authorization: `Bearer ${alice}` } });
      expectClaims(response, { sub: '1', ...ALICE_PROFILE, ...ALICE_EMAIL, role: ['admin', 'user'] });
    });

    it('serves POST with the token as a form-encoded access_token (RFC 6750 §2.2)', async () => {
      const bob = await userAccessToken(server.url, 'bob', 'openid role');
      expectClaims(await postForm(userinfo, { access_token: bob }), { sub: '2', role: ['user'] });
    });

    it('uses the header token and ignores one in the query string', async () => {
      expectClaims(await getUserInfo(`Bearer ${alice}`, `${userinfo}?access_token=garbage`), {
        sub: '1',
        ...ALICE_PROFILE,
        ...ALICE_EMAIL,
        role: ['admin', 'user'],
      });
    });
  });

  describe('delegated tokens', () => {
    // Only the API a token is addressed to may delegate it (docs/tokens.md#addressed-to-a-client).
    let aliceForApi1: string;
    beforeAll(async () => {
      aliceForApi1 = await userAccessToken(server.url, 'alice', `${ALL_IDENTITY_SCOPES} api1`);
    });

    it.each([
      ['openid api2', { sub: '1' }],
      ['openid profile role api2', { sub: '1', ...ALICE_PROFILE, role: ['admin', 'user'] }],
    ])('serves an api1 delegation token with scope "%s" like any user token', async (scope, claims) => {
      const delegated = await requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token: aliceForApi1, scope });
      expect(delegated.status).toBe(200);
      expect(jwtPayload(delegated.body.access_token)).toMatchObject({ sub: '1', client_id: 'api1', act: { client_id: 'api1' } });
      expectClaims(await getUserInfo(`Bearer ${delegated.body.access_token}`), claims);
    });

    it('refuses a delegation token without openid as insufficient_scope', async () => {
      const delegated = await requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token: aliceForApi1, scope: 'api2' });
      const response = await getUserInfo(`Bearer ${delegated.body.access_token}`);
      expectBearerError(response, 403, 'insufficient_scope', 'the access token lacks the openid scope', ', scope="openid"');
    });
  });

  describe('other methods', () => {
    it.each(['PUT', 'PATCH', 'DELETE', 'OPTIONS'])('answers %s with 405 and the allowed methods', async (method) => {
      const response = await request(userinfo, { method, headers: { authorization: `Bearer ${alice}` } });
      expect({ status: response.status, body: response.body }).toEqual({
        status: 405,
        body: { error: 'invalid_request', error_description: 'the userinfo endpoint accepts GET and POST only' },
      });
      expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
      expect(response.headers.get('www-authenticate')).toBeNull();
      expectErrorHeaders(response);
    });

    it('answers HEAD like GET, without a body', async () => {
      const response = await request(userinfo, { method: 'HEAD', headers: { authorization: `Bearer ${alice}` } });
      expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: '' });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect((await request(userinfo, { method: 'HEAD' })).headers.get('www-authenticate')).toBe(`Bearer ${REALM}`);
    });
  });

  it('is advertised in the discovery document', async () => {
    const discovery = await request(`${server.url}/.well-known/openid-configuration`);
    expect(discovery.body.userinfo_endpoint).toBe(`${ISSUER}/connect/userinfo`);
  });
});

describe('GET /connect/userinfo with users cached for CACHE_TTL_SECONDS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ CACHE_TTL_SECONDS: '1' });
  });
  afterAll(() => server.close());

  it('refuses a disabled user once the cache period has passed', async () => {
    const username = uniqueName('cached');
    const subjectId = await insertUser({ username, password: username, claims: { name: 'Cached' }, roles: [] });
    const token = await userAccessToken(server.url, username, 'openid profile');
    const read = () => request(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${token}` } });
    expect((await read()).body).toEqual({ sub: subjectId, name: 'Cached', updated_at: expect.any(Number) });
    await sql('UPDATE users SET enabled = false WHERE subject_id = $1', [subjectId]);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const refused = await read();
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid_token', error_description: 'the user of the access token is unknown or disabled' });
  });
});
