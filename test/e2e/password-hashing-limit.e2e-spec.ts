import { Browser, pkce } from '../support/browser';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { insertUser, uniqueName } from '../support/fixtures';
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

/** One hash at a time, two waiting per lane, 3 s at most in a queue; the service's own sign-in budgets. */
const BOUNDED_WITH_DEFAULT_BUDGETS = {
  ...TIGHT_HASHING,
  PASSWORD_HASHING_QUEUE_TIMEOUT_MS: '3000',
  SIGN_IN_FAILURES_BEFORE_BACKOFF: '',
  SIGN_IN_ADDRESS_FAILURES: '',
};

/** Signs `username` in on the login page of a fresh authorization request; the browser keeps the device cookie it gets. */
async function signIn(browser: Browser, baseUrl: string, username: string, password: string): Promise<Response> {
  return browser.submit(baseUrl, await (await browser.get(authorizeUrl(baseUrl))).text(), { username, password });
}

/**
 * A device cookie is no ticket to the head of the queue for anyone but its user (docs/throttling.md#password-hashing):
 * an attacker holding one for their own account floods wrong passwords with it; other users still sign in.
 */
describe("bounded password hashing under a flood from one device cookie's holder", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(BOUNDED_WITH_DEFAULT_BUDGETS);
  });
  afterAll(() => server.close());

  it('signs in another device-cookie holder and a user without one while the flood lasts, from the same address', async () => {
    const mallory = uniqueName('mallory');
    const plain = uniqueName('plain');
    await insertUser({ username: mallory, password: 'mallory-password' });
    await insertUser({ username: plain, password: 'plain-password' });
    const attacker = new Browser();
    const alice = new Browser();
    for (const [browser, username, password] of [
      [attacker, mallory, 'mallory-password'],
      [alice, 'alice', 'alice'],
    ] as const) {
      expect((await signIn(browser, server.url, username, password)).status).toBe(302);
      expect(browser.cookies.has('tollgate.device')).toBe(true);
    }
    const attackerPage = await (await attacker.get(authorizeUrl(server.url))).text();

    // Ten loops of wrong passwords with the attacker's cookie, until the others are answered (at most 3,000 in all).
    let stopped = false;
    const floodStatuses: number[] = [];
    let underWay: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (underWay = resolve));
    const loop = async () => {
      while (!stopped && floodStatuses.length < 3000) {
        const answer = await attacker.submit(server.url, attackerPage, { username: mallory, password: 'wrong' });
        await answer.arrayBuffer();
        floodStatuses.push(answer.status);
        if (floodStatuses.length >= 20) underWay();
      }
    };
    const flood = Promise.all(Array.from({ length: 10 }, loop));
    await started;
    const [aliceAnswer, plainAnswer] = await Promise.all([
      signIn(alice, server.url, 'alice', 'alice'),
      signIn(new Browser(), server.url, plain, 'plain-password'),
    ]);
    stopped = true;
    await flood;

    expect(aliceAnswer.status).toBe(302);
    expect(plainAnswer.status).toBe(302);
    expect(floodStatuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(floodStatuses.length).toBeLessThan(3000);
  }, 120_000);
});
