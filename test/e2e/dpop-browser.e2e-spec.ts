import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser as Chromium, type Page } from 'playwright-core';
import { Browser, locationParameters, pkce } from '../support/browser';
import { ISSUER, startTestServer, type TestServer } from '../support/create-test-app';
import { insertClient, uniqueName } from '../support/fixtures';
import { jwtPayload } from '../support/http';

/** Debian's Chromium (apt-get install chromium), or CHROMIUM_PATH; no browser is downloaded. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`SKIPPED: the DPoP browser spec needs Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

/**
 * A single-page app as oidc-client-ts or oauth4webapi make one: a non-extractable P-256 key from
 * WebCrypto, proofs signed in the page, a retry with the nonce read from `DPoP-Nonce` (RFC 9449 §8).
 * Every call is cross-origin, so each needs CORS: the DPoP header in the preflight, DPoP-Nonce exposed.
 */
const APP_SCRIPT = `
const b64u = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const part = (value) => b64u(new TextEncoder().encode(JSON.stringify(value)));
let keys, jwk, nonce;
window.app = {
  async makeKey() {
    keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const { crv, kty, x, y } = await crypto.subtle.exportKey('jwk', keys.publicKey);
    jwk = { crv, kty, x, y };
    return b64u(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(jwk))));
  },
  async proof(htm, htu, claims) {
    const input = part({ typ: 'dpop+jwt', alg: 'ES256', jwk }) + '.' +
      part({ jti: crypto.randomUUID(), htm, htu, iat: Math.floor(Date.now() / 1000), ...(nonce ? { nonce } : {}), ...claims });
    return input + '.' + b64u(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new TextEncoder().encode(input)));
  },
  async ath(token) {
    return b64u(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  },
  /** One call, retried once with the server's nonce; what each answer said, as the page could read it. */
  async call(url, htu, init, claims = {}) {
    const answers = [];
    for (;;) {
      const response = await fetch(url, { ...init, headers: { ...init.headers, DPoP: await this.proof(init.method, htu, claims) } });
      const body = await response.json().catch(() => null);
      const fresh = response.headers.get('DPoP-Nonce');
      answers.push({ status: response.status, body, nonce: fresh !== null, challenge: response.headers.get('WWW-Authenticate') });
      if (answers.length > 1 || fresh === null || response.status < 400) return answers;
      nonce = fresh;
    }
  },
};
`;

/** RFC 9449 from a page on a registered redirect origin, in a real browser (docs/dpop.md#from-a-browser). */
(hasChromium ? describe : describe.skip)('DPoP from a browser app in Chromium', () => {
  let tollgate: TestServer;
  let site: Server;
  let origin: string;
  let browser: Chromium;
  const clientId = uniqueName('dpop-spa');

  beforeAll(async () => {
    site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>app</title><script>${APP_SCRIPT}</script>`));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    await insertClient({
      clientId,
      secrets: [],
      public: true,
      grantTypes: ['authorization_code'],
      scopes: ['openid', 'profile'],
      redirectUris: [`${origin}/callback`],
    });
    // Every proof must carry a nonce: the page can only go on if it can read DPoP-Nonce.
    tollgate = await startTestServer({ DPOP_REQUIRE_NONCE: 'true' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await tollgate?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  type Answer = { status: number; body: Record<string, string> | null; nonce: boolean; challenge: string | null };
  /** `window.app` of APP_SCRIPT, reached as globalThis inside page.evaluate. */
  type PageApp = { makeKey(): Promise<string>; ath(token: string): Promise<string>; call(...args: unknown[]): Promise<Answer[]> };
  const call = (page: Page, path: string, init: { method: string; headers?: Record<string, string>; body?: string }, claims: Record<string, string> = {}) =>
    page.evaluate(([url, htu, init, claims]) => (globalThis as unknown as { app: PageApp }).app.call(url, htu, init, claims), [
      `${tollgate.url}${path}`,
      `${ISSUER}${path}`,
      init,
      claims,
    ] as const);
  const form = (values: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(values).toString(),
  });

  it('pushes the request with a proof, redeems the bound code and reads userinfo, following the server nonce each time', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    const jkt = await page.evaluate(() => (globalThis as unknown as { app: PageApp }).app.makeKey());
    const { verifier, challenge } = pkce();
    const redirectUri = `${origin}/callback`;

    const pushed = await call(
      page,
      '/connect/par',
      form({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid profile',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(pushed.map(({ status, body, nonce }) => ({ status, error: body?.error, nonce }))).toEqual([
      { status: 400, error: 'use_dpop_nonce', nonce: true },
      { status: 201, error: undefined, nonce: expect.any(Boolean) },
    ]);

    const signIn = new Browser();
    const login = await signIn.get(
      `${tollgate.url}/connect/authorize?${new URLSearchParams({ client_id: clientId, request_uri: pushed[1].body!.request_uri })}`,
    );
    const callback = await signIn.submit(tollgate.url, await login.text(), { username: 'alice', password: 'alice' });
    const { code } = locationParameters(callback);

    const tokens = await call(
      page,
      '/connect/token',
      form({ grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: redirectUri, code_verifier: verifier }),
    );
    const issued = tokens.at(-1)!;
    expect({ status: issued.status, token_type: issued.body?.token_type }).toEqual({ status: 200, token_type: 'DPoP' });
    expect(jwtPayload(issued.body!.access_token).cnf).toEqual({ jkt });

    const accessToken = issued.body!.access_token;
    const ath = await page.evaluate((token) => (globalThis as unknown as { app: PageApp }).app.ath(token), accessToken);
    const userinfo = await call(page, '/connect/userinfo', { method: 'GET', headers: { authorization: `DPoP ${accessToken}` } }, { ath });
    const read = userinfo.at(-1)!;
    expect({ status: read.status, sub: read.body?.sub }).toEqual({ status: 200, sub: '1' });
    // A challenge is readable too (exposed): the userinfo answer of a bound token sent as Bearer.
    const bearer = await call(page, '/connect/userinfo', { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } });
    expect(bearer.at(-1)!.challenge).toMatch(/^DPoP .*error="invalid_token"/);
    await page.close();
  }, 60_000);
});
