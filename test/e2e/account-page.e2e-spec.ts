import { createHash, randomBytes } from 'node:crypto';
import { sql, startTestServer, type TestServer } from '../support/create-test-app';
import { Browser, readForm } from '../support/browser';
import { insertUser, uniqueName } from '../support/fixtures';

/**
 * The account page over HTTP (docs/passkeys.md#the-account-page--get-account): sign-in, the recent
 * sign-in that adding and removing need, CSRF. The issuer is plain http on a domain, so the page shows
 * no passkey controls; adding a passkey is in passkeys-chromium.e2e-spec.ts.
 */
describe('GET /account', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const csrfOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const sessionIdOf = async (browser: Browser) =>
    (
      await sql<{ session_id: string }>('SELECT session_id FROM sign_in_sessions WHERE handle_hash = $1', [
        createHash('sha256').update(browser.cookies.get('tollgate.session')!).digest('base64url'),
      ])
    )[0]?.session_id;

  /** A user with one passkey, signed in with a password `minutesAgo`. */
  async function signedInUser(minutesAgo: number): Promise<{ browser: Browser; subject: string; username: string; credentialId: string }> {
    const username = uniqueName('account');
    const subject = await insertUser({ username, password: 'account-password' });
    const credentialId = randomBytes(16).toString('base64url');
    await sql("INSERT INTO passkeys (credential_id, subject_id, user_handle, public_key, name) VALUES ($1, $2, 'handle', '\\x00', 'Old phone')", [
      credentialId,
      subject,
    ]);
    const browser = new Browser();
    const handle = randomBytes(32).toString('base64url');
    await sql(
      `INSERT INTO sign_in_sessions (handle_hash, session_id, subject_id, auth_time, authentication_methods, expires_at)
       VALUES ($1, $2, $3, now() - make_interval(mins => $4), '{pwd}', now() + interval '1 hour')`,
      [createHash('sha256').update(handle).digest('base64url'), randomBytes(16).toString('base64url'), subject, minutesAgo],
    );
    browser.cookies.set('tollgate.session', handle);
    return { browser, subject, username, credentialId };
  }

  const passkeyNames = async (subject: string) =>
    (await sql<{ name: string }>('SELECT name FROM passkeys WHERE subject_id = $1', [subject])).map((row) => row.name);

  it('is a login page without a session, whose sign-in shows the account; the password path needs no script', async () => {
    const username = uniqueName('account');
    await insertUser({ username, password: 'account-password' });
    const browser = new Browser();
    const login = await browser.get(`${server.url}/account`);
    expect(login.status).toBe(200);
    expect(login.headers.get('content-security-policy')).toContain("script-src 'none'");
    const html = await login.text();
    expect(readForm(html).action).toBe('/account/sign-in');
    const wrong = await browser.submit(server.url, html, { username, password: 'wrong' });
    expect(await wrong.text()).toContain('The username or password is incorrect.');
    const page = await browser.submit(server.url, await (await browser.get(`${server.url}/account`)).text(), { username, password: 'account-password' });
    expect(page.status).toBe(200);
    const account = await page.text();
    expect(account).toContain('Your account');
    expect(account).toContain('You have no passkeys yet.');
    expect(browser.cookies.has('tollgate.session')).toBe(true);
  });

  it('renames at any time, but removes only after a sign-in within 5 minutes; confirming with the password keeps the session', async () => {
    const { browser, subject, username, credentialId } = await signedInUser(10);
    const stale = await (await browser.get(`${server.url}/account`)).text();
    expect(stale).toContain('Confirm it is you');
    expect(stale).not.toContain('Remove passkey');
    const csrf = csrfOf(stale);

    const renamed = await browser.post(`${server.url}/account/passkeys/rename`, { csrf_token: csrf, credential_id: credentialId, name: 'Work phone' });
    expect(await renamed.text()).toContain('The passkey was renamed.');
    const refused = await browser.post(`${server.url}/account/passkeys/remove`, { csrf_token: csrf, credential_id: credentialId });
    expect(await refused.text()).toContain('Confirm it is you first');
    expect(await passkeyNames(subject)).toEqual(['Work phone']);

    const sessionId = await sessionIdOf(browser);
    const handle = browser.cookies.get('tollgate.session');
    const confirmed = await browser.post(`${server.url}/account/sign-in`, { csrf_token: csrf, username, password: 'account-password' });
    const recent = await confirmed.text();
    expect(recent).toContain('Remove passkey Work phone');
    expect(browser.cookies.get('tollgate.session')).not.toBe(handle);
    expect(await sessionIdOf(browser)).toBe(sessionId);

    const removed = await browser.post(`${server.url}/account/passkeys/remove`, { csrf_token: csrfOf(recent), credential_id: credentialId });
    expect(await removed.text()).toContain('The passkey was removed.');
    expect(await passkeyNames(subject)).toEqual([]);
  });

  it("refuses a form without the session's CSRF token, and another user's passkey", async () => {
    const { browser, subject, credentialId } = await signedInUser(1);
    const other = await signedInUser(1);
    expect((await browser.post(`${server.url}/account/passkeys/remove`, { csrf_token: 'x'.repeat(43), credential_id: credentialId })).status).toBe(403);
    const csrf = csrfOf(await (await browser.get(`${server.url}/account`)).text());
    const foreign = await browser.post(`${server.url}/account/passkeys/remove`, { csrf_token: csrf, credential_id: other.credentialId });
    expect(await foreign.text()).toContain('That passkey is not one of yours');
    expect(await passkeyNames(other.subject)).toEqual(['Old phone']);
    expect(await passkeyNames(subject)).toEqual(['Old phone']);
  });
});
