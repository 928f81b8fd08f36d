import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort, hasChromium, launchChromium, warnWithoutChromium } from '../support/chromium';
import { createApp } from '../../src/app.factory';
import { sql, testConfig } from '../support/create-test-app';
import { insertClient, insertUser, uniqueName } from '../support/fixtures';
import { jwtPayload, postForm } from '../support/http';
import { pkce } from '../support/browser';

warnWithoutChromium('the passkey specs');

/**
 * Passkeys and step-up (docs/passkeys.md) in a real browser with a CDP virtual authenticator (a
 * platform authenticator with resident keys and user verification). Chromium offers WebAuthn only in
 * a secure context on a domain, so Tollgate's issuer here is http://localhost:<port>, and so is the
 * client's callback, a small server that records the codes.
 * PASSKEY_SCREENSHOTS=<dir> keeps the screenshots of the account, login and step-up pages (docs/ has them).
 */
(hasChromium ? describe : describe.skip)('passkeys in Chromium', () => {
  let tollgate: NestFastifyApplication;
  let issuer: string;
  let browser: Browser;
  const clientId = uniqueName('passkey-spa');
  let callback: string;
  let callbackServer: Server;
  const codes: string[] = [];
  const screenshots = process.env.PASSKEY_SCREENSHOTS ?? tmpdir();

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://localhost:${port}`;
    tollgate = await createApp(testConfig({ ISSUER: issuer }));
    // Both loopback addresses: Chromium may reach localhost over ::1 or 127.0.0.1.
    await tollgate.listen({ port, host: '::' });
    // The client's callback: records the code (or error) the browser brings.
    callbackServer = createHttpServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/callback') codes.push(url.searchParams.get('code') ?? `error:${url.searchParams.get('error')}`);
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p id="callback">back at the client</p>');
    });
    await new Promise<void>((resolve) => callbackServer.listen(0, '::', resolve));
    callback = `http://localhost:${(callbackServer.address() as { port: number }).port}/callback`;
    await insertClient({
      clientId,
      secrets: [],
      public: true,
      grantTypes: ['authorization_code'],
      scopes: ['openid', 'profile', 'api1'],
      redirectUris: [callback],
    });
    await sql('UPDATE clients SET client_name = $2 WHERE client_id = $1', [clientId, 'Example App']);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await tollgate?.close();
    await new Promise((resolve) => callbackServer?.close(resolve));
  });

  /** A browser context with one virtual platform authenticator. */
  async function browserWithAuthenticator(): Promise<{ context: BrowserContext; page: Page; presence: (on: boolean) => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 480, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    // With presence simulated, the authenticator answers the login page's autofill request (conditional mediation) at once.
    const presence = async (enabled: boolean) => void (await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled }));
    return { context, page, presence };
  }

  /** Opens the authorization endpoint for the client; returns the PKCE verifier for the code. */
  async function authorize(page: Page, extra: Record<string, string> = {}): Promise<string> {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid profile api1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    await page.goto(`${issuer}/connect/authorize?${query}`);
    return verifier;
  }

  async function redeem(code: string, verifier: string): Promise<{ idToken: Record<string, unknown>; accessToken: Record<string, unknown> }> {
    const response = await postForm(`${issuer}/connect/token`, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: callback,
    });
    expect(response.status).toBe(200);
    return { idToken: jwtPayload(response.body.id_token), accessToken: jwtPayload(response.body.access_token) };
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    const path = join(screenshots, name);
    await page.screenshot({ path, fullPage: true });
    expect((await readFile(path)).subarray(1, 4).toString()).toBe('PNG');
  }

  async function signInWithPassword(page: Page, username: string): Promise<void> {
    await page.fill('#username', username);
    await page.fill('#password', 'correct horse');
    await page.click('button[type=submit].primary');
  }

  it('adds a passkey on the account page, signs in with it, steps a password session up with it, and removes it', async () => {
    const username = uniqueName('passkey-user');
    await insertUser({ username, password: 'correct horse', claims: { name: 'Pat Key' } });
    const { context, page, presence } = await browserWithAuthenticator();

    // The login page offers a passkey beside the password form, and the browser's autofill for it.
    let verifier = await authorize(page);
    await page.waitForSelector('button:text("Sign in with a passkey")');
    expect(await page.getAttribute('#username', 'autocomplete')).toBe('username webauthn');
    await screenshot(page, 'login-page-passkey.png');
    await signInWithPassword(page, username);
    await page.waitForSelector('#callback');
    expect((await redeem(codes.at(-1)!, verifier)).idToken).toMatchObject({ acr: 'pwd', amr: ['pwd'] });

    // Signed in just now: the account page adds a passkey; its script runs under the page's CSP nonce.
    const account = await page.goto(`${issuer}/account`);
    expect(account?.headers()['content-security-policy']).toMatch(/script-src 'nonce-[A-Za-z0-9_-]+';/);
    expect(account?.headers()['content-security-policy']).not.toContain('unsafe-inline');
    await page.fill('#passkey-name', 'Test laptop');
    await page.click('button:text("Add a passkey")');
    await page.waitForSelector('[role=status]:text("The passkey was added.")');
    expect(await page.inputValue('#passkey-0')).toBe('Test laptop');
    expect(await page.getByRole('button', { name: 'Remove passkey Test laptop' }).count()).toBe(1);
    await screenshot(page, 'account-page.png');

    // Sign out; the login page's autofill (conditional mediation) signs in with the passkey.
    await page.click('button:text("Sign out of Tollgate")');
    await page.waitForSelector('text=signed out');
    verifier = await authorize(page);
    await page.waitForSelector('#callback');
    const passkeySignIn = await redeem(codes.at(-1)!, verifier);
    expect(passkeySignIn.idToken).toMatchObject({ acr: 'phr', amr: ['hwk', 'user'] });
    expect(passkeySignIn.accessToken).toMatchObject({ acr: 'phr', amr: ['hwk', 'user'], auth_time: passkeySignIn.idToken.auth_time });

    // A new sign-in with the password (the autofill waits for a touch that does not come): acr pwd.
    await presence(false);
    verifier = await authorize(page, { prompt: 'login' });
    await signInWithPassword(page, username);
    await page.waitForSelector('#callback');
    const passwordSignIn = await redeem(codes.at(-1)!, verifier);
    expect(passwordSignIn.idToken).toMatchObject({ acr: 'pwd', amr: ['pwd'] });

    // The client asks for phr: the same session steps up with the passkey's button.
    await presence(true);
    verifier = await authorize(page, { acr_values: 'phr' });
    await page.waitForSelector('button:text("Use a passkey")');
    await screenshot(page, 'step-up-page.png');
    await page.click('button:text("Use a passkey")');
    await page.waitForSelector('#callback');
    const steppedUp = await redeem(codes.at(-1)!, verifier);
    expect(steppedUp.idToken).toMatchObject({ acr: 'phr', amr: ['hwk', 'user'], sid: passwordSignIn.idToken.sid });
    expect(steppedUp.idToken.auth_time).toBeGreaterThanOrEqual(passwordSignIn.idToken.auth_time as number);
    expect(steppedUp.accessToken).toMatchObject({ acr: 'phr', auth_time: steppedUp.idToken.auth_time });

    // The sign-in is recent: the passkey can be removed; then a password sign-in asked for phr cannot meet it.
    await page.goto(`${issuer}/account`);
    await page.getByRole('button', { name: 'Remove passkey Test laptop' }).click();
    await page.waitForSelector('[role=status]:text("The passkey was removed.")');
    expect(await page.locator('#passkey-0').count()).toBe(0);
    await presence(false);
    await authorize(page, { acr_values: 'phr', prompt: 'login' });
    await signInWithPassword(page, username);
    await page.waitForSelector('#callback');
    expect(codes.at(-1)).toBe('error:unmet_authentication_requirements');
    await context.close();
  }, 120_000);

  it('signs in with a passkey on the device verification page, and the device gets phr tokens', async () => {
    const username = uniqueName('device-passkey');
    const subject = await insertUser({ username, password: 'correct horse' });
    const { context, page } = await browserWithAuthenticator();
    // A passkey first: added on the account page after a password sign-in; then signed out.
    await page.goto(`${issuer}/account`);
    await signInWithPassword(page, username);
    await page.fill('#passkey-name', 'Phone');
    await page.click('button:text("Add a passkey")');
    await page.waitForSelector('[role=status]:text("The passkey was added.")');
    await page.click('button:text("Sign out of Tollgate")');
    await page.waitForSelector('text=signed out');

    const device = await postForm(`${issuer}/connect/deviceauthorization`, { client_id: 'tv', scope: 'openid profile api1' });
    expect(device.status).toBe(200);
    // The verification page's login offers a passkey, and its autofill signs in with it, as the login page's does.
    await page.goto(device.body.verification_uri_complete);
    await page.waitForSelector('#user_code');
    expect(await page.inputValue('#user_code')).toBe(device.body.user_code);
    await page.click('button[type=submit]');
    await page.click('button[value=allow]');
    await page.waitForSelector('text=Device connected');
    await context.close();

    const tokens = await postForm(`${issuer}/connect/token`, {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: device.body.device_code,
      client_id: 'tv',
    });
    expect(tokens.status).toBe(200);
    expect(jwtPayload(tokens.body.id_token)).toMatchObject({ sub: subject, acr: 'phr', amr: ['hwk', 'user'] });
  }, 120_000);
});
