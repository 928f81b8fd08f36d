import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { freePort, hasChromium, launchChromium, warnWithoutChromium } from '../support/chromium';
import { createApp } from '../../src/app.factory';
import { testConfig } from '../support/create-test-app';
import { insertClient, uniqueName } from '../support/fixtures';
import { startRelyingParty, type RelyingParty } from '../../examples/relying-party';

warnWithoutChromium('the browser sign-in specs');

/**
 * A real browser through the whole flow (docs/browser-sign-in.md): relying parties written with
 * openid-client, registered like the demo's `spa` (public, first-party) and `webapp` (confidential,
 * consent) but on free ports (the demo's 5173 and 5174 may be taken, e.g. by the README's
 * walk-through), Chromium driven by playwright-core, Tollgate in between. The login page's screenshot goes to LOGIN_SCREENSHOT (docs/login-page.png is one).
 */
(hasChromium ? describe : describe.skip)('browser sign-in in Chromium', () => {
  let tollgate: NestFastifyApplication;
  let spa: RelyingParty;
  let webapp: RelyingParty;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    tollgate = await createApp(testConfig({ ISSUER: issuer }));
    await tollgate.listen({ port, host: '127.0.0.1' });
    const [spaPort, webappPort] = [await freePort(), await freePort()];
    const [spaId, webappId] = [uniqueName('spa'), uniqueName('webapp')];
    const redirects = (rpPort: number) => ({ redirectUris: [`http://127.0.0.1:${rpPort}/callback`], postLogoutRedirectUris: [`http://127.0.0.1:${rpPort}/`] });
    const grantTypes = ['authorization_code', 'refresh_token'];
    await insertClient({
      clientId: spaId,
      secrets: [],
      public: true,
      grantTypes,
      scopes: ['openid', 'profile', 'email', 'role', 'api1', 'offline_access'],
      ...redirects(spaPort),
    });
    await insertClient({
      clientId: webappId,
      secrets: [{ secret: 'webapp-secret' }],
      requireConsent: true,
      grantTypes,
      scopes: ['openid', 'profile', 'email', 'api1', 'offline_access'],
      ...redirects(webappPort),
    });
    spa = await startRelyingParty({ issuer, port: spaPort, clientId: spaId, scope: 'openid profile email role' });
    webapp = await startRelyingParty({ issuer, port: webappPort, clientId: webappId, clientSecret: 'webapp-secret', scope: 'openid profile email api1' });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await spa?.close();
    await webapp?.close();
    await tollgate?.close();
  });

  async function signIn(page: Page, password: string): Promise<void> {
    await page.fill('#username', 'alice');
    await page.fill('#password', password);
    await page.click('button[type=submit]');
  }

  it('signs alice in to the spa after a wrong password, shows her userinfo, and signs her out', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    await page.goto(`${spa.url}/`);
    await page.click('text=Sign in');
    await page.waitForSelector('#password');
    expect(new URL(page.url()).pathname).toBe('/connect/authorize');
    // The first field has focus; the inputs are labelled.
    expect(await page.locator('#username').evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true);
    expect(await page.getByLabel('Password').count()).toBe(1);
    const screenshot = process.env.LOGIN_SCREENSHOT ?? join(tmpdir(), 'tollgate-login-page.png');
    await page.screenshot({ path: screenshot });
    expect((await readFile(screenshot)).subarray(1, 4).toString()).toBe('PNG');

    await signIn(page, 'wrong password');
    await page.waitForSelector('[role=alert]');
    expect(await page.textContent('[role=alert]')).toBe('The username or password is incorrect.');
    expect(await page.inputValue('#username')).toBe('alice');

    await signIn(page, 'alice');
    await page.waitForSelector('#userinfo');
    expect(page.url()).toBe(`${spa.url}/`);
    expect(JSON.parse((await page.textContent('#userinfo'))!)).toMatchObject({
      sub: '1',
      name: 'Alice Smith',
      email: 'alice@example.com',
      role: ['admin', 'user'],
    });

    await page.click('text=Sign out');
    await page.waitForSelector('#anonymous');
    expect(page.url()).toBe(`${spa.url}/?state=signed-out`);
    // The session is gone: signing in again asks for the password.
    await page.click('text=Sign in');
    await page.waitForSelector('#password');
    await context.close();
  });

  it('shows a denied consent as an error that fits the screen (before the consent is given below)', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${webapp.url}/login`);
    await page.waitForSelector('#password');
    await signIn(page, 'alice');
    await page.waitForSelector('button[value=deny]');
    await page.click('button[value=deny]');
    await page.waitForSelector('#not-signed-in');
    expect(await page.textContent('p')).toMatch(/^The authorization server answered access_denied/);
    expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });

  it("asks alice's consent for the webapp, then signs her in", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${webapp.url}/login`);
    await page.waitForSelector('#password');
    await signIn(page, 'alice');
    await page.waitForSelector('button[value=allow]');
    expect(await page.textContent('ul.scopes')).toContain('See your email address');
    await page.click('button[value=allow]');
    await page.waitForSelector('#userinfo');
    expect(JSON.parse((await page.textContent('#userinfo'))!)).toMatchObject({ sub: '1', email: 'alice@example.com' });
    // The userinfo wraps within the phone's width.
    expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });
});
