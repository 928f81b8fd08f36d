import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { TOKEN_EXCHANGE_GRANT_TYPE } from '../../src/index';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, insertUser, uniqueName } from '../support/fixtures';
import { jwtPayload, postForm, basic, requestToken, userAccessToken, type HttpResponse } from '../support/http';
import {
  API_DELEGATION_GRANT,
  BADGE_RECEIPT_TYPE,
  BADGE_TOKEN_TYPE,
  KIOSK_PIN_GRANT,
  MISBEHAVING_GRANT,
  OutsideGrantsModule,
  TENANT_GRANT,
} from '../fixtures/outside-grants/outside-grants.module';

/**
 * docs/extending.md, over HTTP: a grant module written as an outside team writes it (only the package's
 * public entry) gets exactly what the built-in grants get, and nothing it does stops the service.
 */
describe('one seam for every grant — an outside grant module', () => {
  let server: TestServer;
  let verify: (token: string) => Promise<JWTPayload>;
  const kiosk = uniqueName('kiosk');
  const tenantApp = uniqueName('tenant-app');
  const misbehaving = uniqueName('misbehaving');
  const badgeReader = uniqueName('badge-reader');
  const guardedFront = uniqueName('guarded-front');

  const token = (clientId: string, secret: string, form: Record<string, string>) => requestToken(server.url, clientId, secret, form);
  /** The same subject token, presented to the built-in `delegation` grant and to the outside one. */
  const bothDelegations = async (clientId: string, secret: string, form: Record<string, string>): Promise<[HttpResponse, HttpResponse]> => [
    await token(clientId, secret, { grant_type: 'delegation', ...form }),
    await token(clientId, secret, { grant_type: API_DELEGATION_GRANT, ...form }),
  ];
  const expectSameRefusal = ([builtIn, outside]: [HttpResponse, HttpResponse], error: string) => {
    expectTokenError(builtIn, 400, error);
    expectTokenError(outside, 400, error);
    expect(outside.body).toEqual(builtIn.body);
  };

  beforeAll(async () => {
    server = await startTestServer({ CACHE_TTL_SECONDS: '0', GRANT_TIMEOUT_SECONDS: '1' }, { grantModules: [OutsideGrantsModule] });
    await sql('UPDATE clients SET allowed_grant_types = allowed_grant_types || $2::text[] WHERE client_id = ANY($1)', [
      ['api1', 'api2'],
      [API_DELEGATION_GRANT],
    ]);
    await insertClient({ clientId: kiosk, secrets: [], public: true, grantTypes: [KIOSK_PIN_GRANT, TENANT_GRANT], scopes: ['openid', 'api1'] });
    await insertClient({
      clientId: tenantApp,
      secrets: [{ secret: 'tenant-secret' }],
      grantTypes: [TENANT_GRANT, 'refresh_token'],
      scopes: ['api1', 'api2', 'offline_access'],
    });
    await insertClient({ clientId: misbehaving, secrets: [{ secret: 'misbehaving-secret' }], grantTypes: [MISBEHAVING_GRANT], scopes: ['api1'] });
    await insertClient({ clientId: badgeReader, secrets: [{ secret: 'badge-secret' }], grantTypes: [TOKEN_EXCHANGE_GRANT_TYPE], scopes: ['api1'] });
    await insertClient({ clientId: guardedFront, secrets: [{ secret: 'guarded-secret' }], grantTypes: ['password'], scopes: ['openid', 'api1'] });
    await sql('UPDATE clients SET may_act_client_id = $2 WHERE client_id = $1', [guardedFront, 'api2']);
    const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/openid-configuration/jwks`));
    verify = async (jwt) => (await jwtVerify(jwt, jwks, { issuer: ISSUER })).payload;
  });
  afterAll(() => server.close());

  it('is written against the public entry only', () => {
    const source = readFileSync(join(__dirname, '../fixtures/outside-grants/outside-grants.module.ts'), 'utf8');
    const imported = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
    expect(new Set(imported)).toEqual(new Set(['@nestjs/common', 'class-validator', '../../../src/index']));
  });

  describe('a delegation-style grant with the exported SubjectTokenValidator', () => {
    it('delegates as the built-in grant does: nested act, kept auth_time, never outliving the subject token', async () => {
      const subjectToken = await userAccessToken(server.url, 'alice', 'openid api1');
      const [builtIn, outside] = await bothDelegations('api1', 'api1-secret', { token: subjectToken, scope: 'api2' });
      expect([builtIn.status, outside.status]).toEqual([200, 200]);
      const subject = jwtPayload(subjectToken);
      const delegated = await verify(outside.body.access_token);
      expect(delegated).toMatchObject({ sub: '1', act: { client_id: 'api1' }, auth_time: subject.auth_time, amr: [API_DELEGATION_GRANT] });
      expect(delegated.exp).toBeLessThanOrEqual(subject.exp);
      expect(outside.body).not.toHaveProperty('refresh_token');
    });

    it('refuses a revoked token exactly as delegation does', async () => {
      const subjectToken = await userAccessToken(server.url, 'alice', 'openid api1');
      const revoked = await postForm(`${server.url}/connect/revocation`, { token: subjectToken }, { authorization: basic('frontend', 'frontend-secret') });
      expect(revoked.status).toBe(200);
      expectSameRefusal(await bothDelegations('api1', 'api1-secret', { token: subjectToken, scope: 'api2' }), 'invalid_grant');
    });

    it("refuses a disabled user's token exactly as delegation does", async () => {
      const username = uniqueName('dora');
      const subjectId = await insertUser({ username, password: 'dora-password' });
      const issued = await token('frontend', 'frontend-secret', { grant_type: 'password', username, password: 'dora-password', scope: 'api1' });
      expect(issued.status).toBe(200);
      await sql('UPDATE users SET enabled = false WHERE subject_id = $1', [subjectId]);
      expectSameRefusal(await bothDelegations('api1', 'api1-secret', { token: issued.body.access_token, scope: 'api2' }), 'invalid_grant');
    });

    it('refuses a token addressed to another API exactly as delegation does', async () => {
      const forApi1 = await userAccessToken(server.url, 'alice', 'openid api1');
      expectSameRefusal(await bothDelegations('api2', 'api2-secret', { token: forApi1 }), 'invalid_grant');
    });

    it('refuses a token whose may_act names another client exactly as delegation does', async () => {
      const issued = await token(guardedFront, 'guarded-secret', { grant_type: 'password', username: 'alice', password: 'alice', scope: 'api1' });
      expect(jwtPayload(issued.body.access_token).may_act).toEqual({ client_id: 'api2' });
      expectSameRefusal(await bothDelegations('api1', 'api1-secret', { token: issued.body.access_token, scope: 'api2' }), 'invalid_grant');
    });
  });

  describe('a grant that declares publicClients and signsIn', () => {
    it('serves a public client, and signs its user in: an ID token with openid', async () => {
      const response = await postForm(`${server.url}/connect/token`, { grant_type: KIOSK_PIN_GRANT, client_id: kiosk, pin: '1234', scope: 'openid api1' });
      expect(response.status).toBe(200);
      const idToken = await verify(response.body.id_token);
      expect(idToken).toMatchObject({ sub: '1', aud: kiosk, amr: ['pin'] });
      expect(idToken).not.toHaveProperty('sid');
      expect((await verify(response.body.access_token)).auth_time).toBe(idToken.auth_time);
    });

    it('refuses the same public client a grant that does not declare publicClients', async () => {
      const response = await postForm(`${server.url}/connect/token`, { grant_type: TENANT_GRANT, client_id: kiosk, scope: 'api1' });
      expectTokenError(response, 400, 'unauthorized_client');
    });
  });

  describe('a grant with refreshTokens', () => {
    it('keeps its claims and its audience on every refresh, never widening aud', async () => {
      const first = await token(tenantApp, 'tenant-secret', { grant_type: TENANT_GRANT, scope: 'api1 api2 offline_access' });
      expect(first.status).toBe(200);
      expect(await verify(first.body.access_token)).toMatchObject({ tenant: 't-42', aud: 'api1' });
      const refreshed = await token(tenantApp, 'tenant-secret', { grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
      expect(refreshed.status).toBe(200);
      expect(await verify(refreshed.body.access_token)).toMatchObject({ tenant: 't-42', aud: 'api1', amr: [TENANT_GRANT] });
      const again = await token(tenantApp, 'tenant-secret', { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, scope: 'api1' });
      expect(await verify(again.body.access_token)).toMatchObject({ tenant: 't-42', aud: 'api1', scope: 'api1' });
    });
  });

  describe('a token-exchange handler the module exports', () => {
    const exchange = (subjectToken: string, subjectTokenType = BADGE_TOKEN_TYPE, extra: Record<string, string> = {}) =>
      token(badgeReader, 'badge-secret', {
        grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
        subject_token: subjectToken,
        subject_token_type: subjectTokenType,
        scope: 'api1',
        ...extra,
      });

    it('is dispatched to by its subject_token_type and requested_token_type', async () => {
      const response = await exchange('badge-of-1');
      expect(response.status).toBe(200);
      expect(await verify(response.body.access_token)).toMatchObject({ sub: '1', badge: true });
      expect(response.body.issued_token_type).toBe('urn:ietf:params:oauth:token-type:access_token');
      expectTokenError(await exchange('badge-of-nobody'), 400, 'invalid_request');
    });

    it('answers a token the handler made itself as it is: token_type N_A, its issued_token_type, no refresh or ID token', async () => {
      const response = await exchange('badge-of-1', BADGE_TOKEN_TYPE, { requested_token_type: BADGE_RECEIPT_TYPE });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ access_token: 'receipt-for-1', token_type: 'N_A', expires_in: 60, scope: 'api1', issued_token_type: BADGE_RECEIPT_TYPE });
    });

    it('answers a pair no handler exchanges invalid_request', async () => {
      const response = await exchange('badge-of-1', BADGE_TOKEN_TYPE, { requested_token_type: 'urn:ietf:params:oauth:token-type:txn_token' });
      expectTokenError(response, 400, 'invalid_request');
      expect(response.body.error_description).toContain(`subject_token_type ${BADGE_TOKEN_TYPE} cannot be exchanged`);
    });
  });

  describe('results checked before anything is issued', () => {
    const answer = (value: string) => token(misbehaving, 'misbehaving-secret', { grant_type: MISBEHAVING_GRANT, answer: value });

    it.each([
      'number',
      'string',
      'array',
      'made-up-kind',
      'forged-continuation',
      'foreign-error',
      'long-description',
      'thrown-foreign-error',
      'rejects',
      'throws',
    ])('answers %s 500 server_error, never a token', async (value) => {
      const response = await answer(value);
      expect(response.status).toBe(500);
      expect(response.body.error).toBe('server_error');
      expect(response.body).not.toHaveProperty('access_token');
    });

    it('answers a grant that never settles 503 temporarily_unavailable with Retry-After, within GRANT_TIMEOUT_SECONDS', async () => {
      const started = Date.now();
      const response = await answer('hangs');
      expect(response.status).toBe(503);
      expect(response.body.error).toBe('temporarily_unavailable');
      expect(response.headers.get('retry-after')).toBe('1');
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('keeps serving afterwards', async () => {
      expect((await answer('ok')).status).toBe(200);
    });
  });
});
