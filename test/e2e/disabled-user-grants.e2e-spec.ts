import { Injectable } from '@nestjs/common';
import { IsNotEmpty, IsString } from 'class-validator';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GrantContext, GrantSuccess, GrantValidator } from '../../src/grants/grant-validator';
import { signJwt, demoPrivateJwk } from '../support/client-assertions';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError, insertClient, insertUser, uniqueName } from '../support/fixtures';
import { requestToken, type HttpResponse } from '../support/http';
import { ACCESS_TOKEN_TYPE, API1, TOKEN_EXCHANGE, passwordTokens, refresh, type ClientCredentials } from '../support/token-lifecycle';

const TXN_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:txn_token';
const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
const DEMO_IDP = 'https://idp.demo.example';
const GATEWAY: ClientCredentials = { clientId: 'gateway', secret: 'gateway-secret' };
const AS_USER_GRANT = 'urn:test:grant:as-user';
const CACHE_TTL_SECONDS = 1;

class AsUserParameters {
  @IsString()
  @IsNotEmpty()
  user!: string;
}

/** A test-only extension grant that issues a token for whichever subject it is given. */
@Injectable()
class AsUserGrantValidator implements GrantValidator<AsUserParameters> {
  readonly grantType = AS_USER_GRANT;
  readonly parameters = AsUserParameters;

  async validate({ user }: AsUserParameters, { scopes }: GrantContext): Promise<GrantSuccess> {
    return { subject: user, scopes: scopes.names };
  }
}

/**
 * docs/users.md: within CACHE_TTL_SECONDS of being disabled, a user gets no token from any grant on
 * any instance — delegation, token exchange (with our token or a trusted issuer's), transaction
 * tokens and their replacement, refresh, and extension grants alike.
 */
describe('a disabled user mints no tokens', () => {
  let a: TestServer;
  let b: TestServer;
  const extension: ClientCredentials = { clientId: uniqueName('as-user'), secret: 'as-user-secret' };
  const username = uniqueName('carol');
  const email = `${username}@example.com`;
  let subject: string;
  let accessToken: string;
  let refreshToken: string;
  let txnToken: string;

  const delegation = (server: TestServer) =>
    requestToken(server.url, API1.clientId, API1.secret, { grant_type: 'delegation', token: accessToken, scope: 'api2' });
  const exchange = (server: TestServer) =>
    requestToken(server.url, API1.clientId, API1.secret, {
      grant_type: TOKEN_EXCHANGE,
      subject_token: accessToken,
      subject_token_type: ACCESS_TOKEN_TYPE,
      scope: 'api2',
    });
  const externalExchange = async (server: TestServer) => {
    const now = Math.floor(Date.now() / 1000);
    const external = await signJwt(
      { iss: DEMO_IDP, aud: 'api1', sub: `idp|${username}`, email, iat: now, exp: now + 300 },
      { key: demoPrivateJwk('demo-idp') },
    );
    return requestToken(server.url, API1.clientId, API1.secret, {
      grant_type: TOKEN_EXCHANGE,
      subject_token: external,
      subject_token_type: JWT_TOKEN_TYPE,
      scope: 'api2',
    });
  };
  const txn = (server: TestServer, subjectToken: string, subjectTokenType: string) =>
    requestToken(server.url, GATEWAY.clientId, GATEWAY.secret, {
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: TXN_TOKEN_TYPE,
      subject_token: subjectToken,
      subject_token_type: subjectTokenType,
      scope: 'api1',
    });
  const asUser = (server: TestServer, user: string) =>
    requestToken(server.url, extension.clientId, extension.secret, { grant_type: AS_USER_GRANT, user, scope: 'api1' });

  /** Every grant that issues a token for the user, with the error each answers when it refuses. */
  const grants: [string, (server: TestServer) => Promise<HttpResponse>, string][] = [
    ['delegation', delegation, 'invalid_grant'],
    ['token exchange of our access token', exchange, 'invalid_request'],
    ["token exchange of a trusted issuer's token", externalExchange, 'invalid_request'],
    ['transaction-token issuance', (server) => txn(server, accessToken, ACCESS_TOKEN_TYPE), 'invalid_request'],
    ['transaction-token replacement', (server) => txn(server, txnToken, TXN_TOKEN_TYPE), 'invalid_request'],
    ['an extension grant', (server) => asUser(server, subject), 'invalid_grant'],
  ];

  beforeAll(async () => {
    const env = { CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS) };
    [a, b] = await Promise.all([
      startTestServer(env, { extraGrants: { validators: [AsUserGrantValidator] } }),
      startTestServer(env, { extraGrants: { validators: [AsUserGrantValidator] } }),
    ]);
    await insertClient({ ...extension, secrets: [{ secret: extension.secret }], grantTypes: [AS_USER_GRANT], scopes: ['api1'] });
    subject = await insertUser({ username, password: 'carol-password', claims: { email, email_verified: true } });
    const tokens = await passwordTokens(a.url, 'openid api1 offline_access', { username, password: 'carol-password' });
    accessToken = tokens.access_token;
    refreshToken = tokens.refresh_token!;
    const minted = await txn(a, accessToken, ACCESS_TOKEN_TYPE);
    expect(minted.status).toBe(200);
    txnToken = minted.body.access_token;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('issues every kind of token for the user while enabled, on both instances', async () => {
    for (const [name, grant] of grants) {
      for (const server of [a, b]) expect({ name, status: (await grant(server)).status }).toEqual({ name, status: 200 });
    }
  });

  it('refuses an extension grant naming an unknown user with invalid_grant', async () => {
    expectTokenError(await asUser(a, uniqueName('nobody')), 400, 'invalid_grant');
  });

  it('refuses every grant on both instances once the user is disabled, and again issues once re-enabled', async () => {
    await sql('UPDATE users SET enabled = false WHERE subject_id = $1', [subject]);
    await sleep(CACHE_TTL_SECONDS * 1000 + 300);
    for (const [name, grant, error] of grants) {
      for (const server of [a, b]) {
        const response = await grant(server);
        expect({ name, status: response.status, error: response.body.error }).toEqual({ name, status: 400, error });
        expectTokenError(response, 400, error);
      }
    }
    expectTokenError(await refresh(b.url, refreshToken), 400, 'invalid_grant');
    expectTokenError(
      await requestToken(a.url, 'frontend', 'frontend-secret', { grant_type: 'password', username, password: 'carol-password' }),
      400,
      'invalid_grant',
    );

    await sql('UPDATE users SET enabled = true WHERE subject_id = $1', [subject]);
    await sleep(CACHE_TTL_SECONDS * 1000 + 300);
    expect((await delegation(b)).status).toBe(200);
    expect((await refresh(a.url, refreshToken)).status).toBe(200);
  });
});
