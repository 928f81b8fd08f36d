import { Browser, pkce } from '../support/browser';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { requestTokenFrom } from '../support/http';

/** One hash at a time, two waiting per lane: a flood of 30 fills it at once. */
const TIGHT_HASHING = { PASSWORD_HASHING_CONCURRENCY: '1', PASSWORD_HASHING_QUEUE: '2', PASSWORD_HASHING_QUEUE_TIMEOUT_MS: '30000' };
const WRONG_PASSWORD = { error: 'invalid_grant', error_description: 'the username or password is incorrect, or the user is disabled' };

function authorizeUrl(baseUrl: string): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'spa',
    redirect_uri: 'http://127.0.0.1:5173/callback',
    scope: 'openid',
    state: 'xyz',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    prompt: 'login',
  });
  return `${baseUrl}/connect/authorize?${query}`;
}

/**
 * Concurrent password hashing is bounded (docs/throttling.md#password-hashing): a flood of wrong
 * passwords from many addresses, each under every budget, gets fast 503s instead of queueing every
 * real sign-in behind it, and browsers with a device cookie go first.
 */
describe('bounded password hashing under a flood of wrong passwords', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(TIGHT_HASHING);
  });
  afterAll(() => server.close());

  it('answers the password grant past the bound with 503 temporarily_unavailable and Retry-After, then serves again', async () => {
    const flood = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        requestTokenFrom(`127.0.0.${50 + i}`, server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username: `user-${i}`, password: 'guess' }),
      ),
    );
    const busy = flood.filter((response) => response.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(20);
    expect(flood.filter((response) => response.status !== 503).map((response) => response.body)).toEqual(Array(30 - busy.length).fill(WRONG_PASSWORD));
    for (const response of busy) {
      expect(response.body).toEqual({ error: 'temporarily_unavailable', error_description: 'too many sign-ins are being checked; try again shortly' });
      expect(response.headers.get('retry-after')).toBe('30');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    const after = await requestTokenFrom('127.0.0.49', server.url, 'frontend', 'frontend-secret', {
      grant_type: 'password',
      username: 'alice',
      password: 'alice',
    });
    expect(after.status).toBe(200);
  }, 120_000);

  it('signs in a browser with a device cookie during a login-page flood that others get a 503 page for', async () => {
    const alice = new Browser();
    const first = await alice.submit(server.url, await (await alice.get(authorizeUrl(server.url))).text(), { username: 'alice', password: 'alice' });
    expect(first.status).toBe(302);
    expect(alice.cookies.has('tollgate.device')).toBe(true);

    const stranger = new Browser();
    const strangerPage = await (await stranger.get(authorizeUrl(server.url))).text();
    const alicePage = await (await alice.get(authorizeUrl(server.url))).text();
    const flood = Array.from({ length: 30 }, (_, i) => stranger.submit(server.url, strangerPage, { username: `user-${i}`, password: 'guess' }));
    const aliceSignsIn = alice.submit(server.url, alicePage, { username: 'alice', password: 'alice' });
    const answers: Response[] = await Promise.all(flood);

    const signedIn = await aliceSignsIn;
    expect(signedIn.status).toBe(302);
    expect(new URL(signedIn.headers.get('location')!).searchParams.get('code')).toEqual(expect.any(String));
    const busy = answers.filter((response) => response.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(20);
    expect(answers.every((response) => response.status === 503 || response.status === 200)).toBe(true);
    expect(busy[0].headers.get('retry-after')).toBe('30');
    expect(busy[0].headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await busy[0].text()).toContain('Too many sign-ins are being checked right now. Please try again in a few seconds.');
  }, 120_000);
});
