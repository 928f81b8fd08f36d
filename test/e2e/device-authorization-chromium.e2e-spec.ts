import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Browser } from 'playwright-core';
import { freePort, hasChromium, launchChromium, warnWithoutChromium } from '../support/chromium';
import { createApp } from '../../src/app.factory';
import { testConfig } from '../support/create-test-app';
import { insertUser, uniqueName } from '../support/fixtures';
import { jwtPayload, postForm } from '../support/http';

warnWithoutChromium('the device verification page spec');

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * The verification page of the device authorization grant (docs/device-authorization.md) in a real
 * browser: Tollgate on a free port as its own issuer, so that `verification_uri_complete` opens as is.
 */
(hasChromium ? describe : describe.skip)('device verification page in Chromium', () => {
  let tollgate: NestFastifyApplication;
  let issuer: string;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    tollgate = await createApp(testConfig({ ISSUER: issuer }));
    await tollgate.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await tollgate?.close();
  });

  it('signs the user in, takes the prefilled code, asks consent, and the device gets its tokens', async () => {
    const username = uniqueName('tv-viewer');
    const subject = await insertUser({ username, password: 'pw' });
    const device = await postForm(`${issuer}/connect/deviceauthorization`, { client_id: 'tv', scope: 'openid profile api1' });
    expect(device.status).toBe(200);
    const poll = () => postForm(`${issuer}/connect/token`, { grant_type: DEVICE_CODE, device_code: device.body.device_code, client_id: 'tv' });

    const context = await browser.newContext();
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(device.body.verification_uri_complete);
    await page.fill('#username', username);
    await page.fill('#password', 'wrong');
    await page.click('button[type=submit]');
    await page.waitForSelector('[role=alert]');
    expect(await page.textContent('[role=alert]')).toBe('The username or password is incorrect.');
    await page.fill('#password', 'pw');
    await page.click('button[type=submit]');

    await page.waitForSelector('#user_code');
    expect(await page.inputValue('#user_code')).toBe(device.body.user_code);
    expect((await poll()).body.error).toBe('authorization_pending');
    await page.click('button[type=submit]');
    await page.waitForSelector('button[value=allow]');
    expect(await page.textContent('main')).toContain('Demo TV');
    await page.click('button[value=allow]');
    await page.waitForSelector('text=Device connected');
    expect(blocked).toEqual([]);
    await context.close();

    // Once answered, the answer comes whenever the device polls: slow_down is for a pending request.
    const tokens = await poll();
    expect(tokens.status).toBe(200);
    expect(jwtPayload(tokens.body.access_token)).toMatchObject({ sub: subject, client_id: 'tv', scope: 'openid profile api1' });
    expect(jwtPayload(tokens.body.id_token)).toMatchObject({ sub: subject, aud: 'tv' });
  }, 60_000);
});
