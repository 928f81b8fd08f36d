import { SigningKeyStore } from '../../src/tokens/keys/signing-key.store';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { expectTokenError } from '../support/fixtures';
import { forgedTokenCorpus, nestedActor, type ForgedTokenCorpus } from '../support/forged-token-corpus';
import { jwtPayload, postForm, request, requestToken, userAccessToken, type HttpResponse } from '../support/http';

/**
 * The forged-token corpus (test/support/forged-token-corpus.ts) end to end: every forgery is
 * refused by the delegation grant (400 invalid_grant) and by userinfo (401 invalid_token), while
 * the token they were all made from is accepted by both. The forgeries that must get past the
 * signature check are signed with the service's own key, taken from the running service.
 */
describe('forged access tokens, end to end', () => {
  let server: TestServer;
  let corpus: ForgedTokenCorpus;
  let claims: Record<string, unknown>;
  let signWithServiceKey: (payload: Record<string, unknown>) => string;

  const delegate = (token: string) => requestToken(server.url, 'api1', 'api1-secret', { grant_type: 'delegation', token, scope: 'api2' });
  const userinfo = (token: string) => request(`${server.url}/connect/userinfo`, { headers: { authorization: `Bearer ${token}` } });
  const userinfoPost = (token: string) => postForm(`${server.url}/connect/userinfo`, { access_token: token });

  function expectInvalidToken(response: HttpResponse): void {
    expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: { error: 'invalid_token', error_description: expect.any(String) } });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="http:\/\/tollgate\.test", error="invalid_token", error_description="[^"]+"$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
  }

  beforeAll(async () => {
    server = await startTestServer();
    const real = await userAccessToken(server.url, 'alice', 'openid profile api1');
    claims = jwtPayload(real);
    const key = server.app.get(SigningKeyStore).signingKey();
    corpus = forgedTokenCorpus({ key, issuer: ISSUER, claims });
    signWithServiceKey = (payload) => forgedTokenCorpus({ key, issuer: ISSUER, claims: payload }).control;
  });
  afterAll(() => server.close());

  it('accepts the control token, from which every forgery differs in one thing', async () => {
    expect((await delegate(corpus.control)).status).toBe(200);
    expect((await userinfo(corpus.control)).body).toMatchObject({ sub: '1', preferred_username: 'alice' });
  });

  it('refuses every forgery through the delegation grant with 400 invalid_grant', async () => {
    const refused: string[] = [];
    for (const { name, token } of corpus.forgeries) {
      if (token === corpus.oversized) continue;
      const response = await delegate(token);
      if (response.status === 400 && response.body.error === 'invalid_grant') refused.push(name);
      else throw new Error(`forgery "${name}" got ${response.status} ${JSON.stringify(response.body)}`);
    }
    expect(refused).toHaveLength(corpus.forgeries.length - 1);
    console.log(`delegation refused ${refused.length} forged tokens (+1 oversized, refused as a parameter)`);
  });

  it('refuses a token over 16 KiB as a malformed request before validating it', async () => {
    expectTokenError(await delegate(corpus.oversized), 400, 'invalid_request');
  });

  it('refuses every forgery at userinfo with 401 invalid_token, in the Authorization header and in the body', async () => {
    let refused = 0;
    for (const { name, token } of corpus.forgeries) {
      // Node refuses request headers over 16 KiB with 431 before any route runs; the body carries it instead.
      const responses = token === corpus.oversized ? [await userinfoPost(token)] : [await userinfo(token), await userinfoPost(token)];
      for (const response of responses) {
        try {
          expectInvalidToken(response);
        } catch (error) {
          throw new Error(`forgery "${name}" got ${response.status} ${JSON.stringify(response.body)}`, { cause: error });
        }
        refused++;
      }
    }
    expect(refused).toBe(corpus.forgeries.length * 2 - 1);
    console.log(`userinfo refused ${corpus.forgeries.length} forged tokens (${refused} requests)`);
  });

  it('accepts an act chain 8 deep at userinfo but refuses to delegate it a ninth time', async () => {
    const deep = signWithServiceKey({ ...claims, act: nestedActor(8) });
    expect((await userinfo(deep)).status).toBe(200);
    expectTokenError(await delegate(deep), 400, 'invalid_grant');
  });

  it('still serves a valid request after the corpus', async () => {
    const response = await delegate(corpus.control);
    expect(response.status).toBe(200);
    expect(jwtPayload(response.body.access_token)).toMatchObject({ sub: '1', act: { client_id: 'api1' } });
  });
});
