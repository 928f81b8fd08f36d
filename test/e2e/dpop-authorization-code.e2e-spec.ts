import * as oidc from 'openid-client';
import { Browser, locationParameters, pkce } from '../support/browser';
import { ISSUER, sql, startTestServer, type TestServer } from '../support/create-test-app';
import { dpopKey, type DpopKey } from '../support/dpop';
import { expectTokenError } from '../support/fixtures';
import { basic, jwtPayload, postForm, type HttpResponse } from '../support/http';

const SPA_CALLBACK = 'http://127.0.0.1:5173/callback';
const WEBAPP_CALLBACK = 'http://127.0.0.1:5174/callback';
const TOKEN_URL = `${ISSUER}/connect/token`;
const PAR_URL = `${ISSUER}/connect/par`;

/**
 * RFC 9449 §10 (docs/dpop.md#binding-the-authorization-code): `dpop_jkt` at the authorization
 * endpoint, or a proof (and `dpop_jkt`) sent with a pushed request, binds the code to a key; only a
 * proof of that key redeems it.
 */
describe('DPoP-bound authorization codes', () => {
  let server: TestServer;
  let startedAt: Date;
  beforeAll(async () => {
    [{ now: startedAt }] = await sql<{ now: Date }>('SELECT now()');
    server = await startTestServer();
  });
  afterAll(async () => {
    // The consent given here would spare the next specs on this database webapp's consent page.
    await sql(`DELETE FROM consents WHERE client_id = 'webapp' AND updated_at >= $1`, [startedAt]);
    await server.close();
  });

  const { verifier, challenge } = pkce();
  const spaRequest = (extra: Record<string, string> = {}) => ({
    client_id: 'spa',
    response_type: 'code',
    redirect_uri: SPA_CALLBACK,
    scope: 'openid api1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });

  /** The browser's part: the authorization request, alice's sign-in, the redirect back. */
  async function signIn(parameters: Record<string, string>): Promise<Response> {
    const browser = new Browser();
    const page = await browser.get(`${server.url}/connect/authorize?${new URLSearchParams(parameters).toString()}`);
    if (page.status !== 200) return page;
    return browser.submit(server.url, await page.text(), { username: 'alice', password: 'alice' });
  }
  async function code(parameters: Record<string, string>): Promise<string> {
    const callback = await signIn(parameters);
    expect(callback.status).toBe(302);
    return locationParameters(callback).code;
  }
  const push = (form: Record<string, string>, proof?: string) => postForm(`${server.url}/connect/par`, form, proof === undefined ? {} : { dpop: proof });
  async function pushedCode(form: Record<string, string>, proof?: string): Promise<string> {
    const pushed = await push(form, proof);
    expect(pushed.status).toBe(201);
    return code({ client_id: 'spa', request_uri: pushed.body.request_uri });
  }
  const redeem = async (handle: string, key?: DpopKey): Promise<HttpResponse> =>
    postForm(
      `${server.url}/connect/token`,
      { grant_type: 'authorization_code', client_id: 'spa', code: handle, redirect_uri: SPA_CALLBACK, code_verifier: verifier },
      key === undefined ? {} : { dpop: await key.proof('POST', TOKEN_URL) },
    );
  const expectBoundTo = (response: HttpResponse, key: DpopKey) => {
    expect(response.status).toBe(200);
    expect(response.body.token_type).toBe('DPoP');
    expect(jwtPayload(response.body.access_token).cnf).toEqual({ jkt: key.jkt });
  };

  describe('dpop_jkt at /connect/authorize', () => {
    it('binds the code: another key or no proof is invalid_dpop_proof and leaves the code; the right key redeems it', async () => {
      const [key, other] = await Promise.all([dpopKey(), dpopKey()]);
      const handle = await code(spaRequest({ dpop_jkt: key.jkt }));
      expectTokenError(await redeem(handle), 400, 'invalid_dpop_proof');
      expectTokenError(await redeem(handle, other), 400, 'invalid_dpop_proof');
      expectBoundTo(await redeem(handle, key), key);
    });

    it('carries dpop_jkt through the login and consent pages of a confidential client', async () => {
      const key = await dpopKey();
      const browser = new Browser();
      const login = await browser.get(
        `${server.url}/connect/authorize?${new URLSearchParams({ ...spaRequest({ dpop_jkt: key.jkt, prompt: 'consent' }), client_id: 'webapp', redirect_uri: WEBAPP_CALLBACK })}`,
      );
      const consent = await browser.submit(server.url, await login.text(), { username: 'alice', password: 'alice' });
      const callback = await browser.submit(server.url, await consent.text(), { decision: 'allow' });
      const form = { grant_type: 'authorization_code', code: locationParameters(callback).code, redirect_uri: WEBAPP_CALLBACK, code_verifier: verifier };
      const webapp = { authorization: basic('webapp', 'webapp-secret') };
      expectTokenError(await postForm(`${server.url}/connect/token`, form, webapp), 400, 'invalid_dpop_proof');
      expectBoundTo(await postForm(`${server.url}/connect/token`, form, { ...webapp, dpop: await key.proof('POST', TOKEN_URL) }), key);
    });

    it('leaves a code without dpop_jkt unbound: any proof binds its tokens, none gives Bearer', async () => {
      const key = await dpopKey();
      expectBoundTo(await redeem(await code(spaRequest()), key), key);
      expect((await redeem(await code(spaRequest()))).body.token_type).toBe('Bearer');
    });

    it.each(['not-a-thumbprint', 'A'.repeat(42), 'A'.repeat(44), `${'A'.repeat(42)}=`])(
      'refuses dpop_jkt %s with invalid_request at the redirect URI',
      async (dpopJkt) => {
        const response = await signIn(spaRequest({ dpop_jkt: dpopJkt, state: 'jkt-state' }));
        expect(response.status).toBe(302);
        expect(response.headers.get('location')!.startsWith(`${SPA_CALLBACK}?`)).toBe(true);
        expect(locationParameters(response)).toEqual({ error: 'invalid_request', error_description: expect.any(String), state: 'jkt-state', iss: ISSUER });
      },
    );
  });

  describe('pushed authorization requests (RFC 9449 §10.1)', () => {
    it('binds the code to the key of a proof sent with the pushed request', async () => {
      const [key, other] = await Promise.all([dpopKey(), dpopKey()]);
      const handle = await pushedCode(spaRequest(), await key.proof('POST', PAR_URL));
      expectTokenError(await redeem(handle, other), 400, 'invalid_dpop_proof');
      expectTokenError(await redeem(handle), 400, 'invalid_dpop_proof');
      expectBoundTo(await redeem(handle, key), key);
    });

    it('binds the code to a dpop_jkt pushed without a proof, and accepts a dpop_jkt matching the proof', async () => {
      const key = await dpopKey();
      const pushedJkt = await pushedCode(spaRequest({ dpop_jkt: key.jkt }));
      expectTokenError(await redeem(pushedJkt, await dpopKey()), 400, 'invalid_dpop_proof');
      expectBoundTo(await redeem(pushedJkt, key), key);
      const both = await pushedCode(spaRequest({ dpop_jkt: key.jkt }), await key.proof('POST', PAR_URL));
      expectBoundTo(await redeem(both, key), key);
    });

    it('refuses a dpop_jkt that is not the thumbprint of the proof key: invalid_dpop_proof', async () => {
      const [key, other] = await Promise.all([dpopKey(), dpopKey()]);
      expectTokenError(await push(spaRequest({ dpop_jkt: other.jkt }), await key.proof('POST', PAR_URL)), 400, 'invalid_dpop_proof');
    });

    it.each<[string, (key: DpopKey) => Promise<string> | string]>([
      ['not-a-jwt', () => 'not-a-jwt'],
      ['a proof for the token endpoint (htu)', (key) => key.proof('POST', TOKEN_URL)],
      ['a proof for GET (htm)', (key) => key.proof('GET', PAR_URL)],
      ['an iat two minutes old', (key) => key.proof('POST', PAR_URL, { iat: Math.floor(Date.now() / 1000) - 120 })],
    ])('refuses %s as invalid_dpop_proof (400), with the client authenticated first', async (_, make) => {
      const key = await dpopKey();
      expectTokenError(await push(spaRequest(), await make(key)), 400, 'invalid_dpop_proof');
      const unauthenticated = await postForm(`${server.url}/connect/par`, spaRequest({ client_id: 'webapp', redirect_uri: WEBAPP_CALLBACK }), {
        authorization: basic('webapp', 'wrong'),
        dpop: await make(key),
      });
      expect(unauthenticated.status).toBe(401);
    });

    it('refuses a proof used before at the pushed authorization request endpoint', async () => {
      const key = await dpopKey();
      const proof = await key.proof('POST', PAR_URL);
      expect((await push(spaRequest(), proof)).status).toBe(201);
      expectTokenError(await push(spaRequest(), proof), 400, 'invalid_dpop_proof');
    });

    it('works with openid-client: buildAuthorizationUrlWithPAR and authorizationCodeGrant with one DPoP handle', async () => {
      const config = await oidc.discovery(new URL(ISSUER), 'spa', undefined, oidc.None(), {
        [oidc.customFetch]: (url, options) => fetch(url.replace(ISSUER, server.url), options as RequestInit),
        execute: [oidc.allowInsecureRequests],
      });
      const key = await dpopKey();
      const url = await oidc.buildAuthorizationUrlWithPAR(
        config,
        { redirect_uri: SPA_CALLBACK, scope: 'openid api1', code_challenge: challenge, code_challenge_method: 'S256', state: 'lib-state' },
        { DPoP: oidc.getDPoPHandle(config, key.pair) },
      );
      const callback = await signIn(Object.fromEntries(url.searchParams));
      const currentUrl = new URL(callback.headers.get('location')!);
      const stolen = oidc.getDPoPHandle(config, (await dpopKey()).pair);
      const checks = { pkceCodeVerifier: verifier, expectedState: 'lib-state' };
      await expect(oidc.authorizationCodeGrant(config, currentUrl, checks, undefined, { DPoP: stolen })).rejects.toMatchObject({ error: 'invalid_dpop_proof' });
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, checks, undefined, { DPoP: oidc.getDPoPHandle(config, key.pair) });
      expect(tokens.token_type).toBe('dpop');
      expect(jwtPayload(tokens.access_token).cnf).toEqual({ jkt: key.jkt });
    });
  });
});
