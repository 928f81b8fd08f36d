import { performance } from 'node:perf_hooks';
import { startTestServer, type TestServer } from '../support/create-test-app';
import { requestTokenFrom } from '../support/http';

const WRONG_PASSWORD = { error: 'invalid_grant', error_description: 'the username or password is incorrect, or the user is disabled' };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * A back-off refusal hashes a decoy (docs/throttling.md#user-sign-in-back-off): it takes about as
 * long as a checked password, so the time of the answer does not reveal the back-off either.
 */
describe('the time of a sign-in back-off refusal', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SIGN_IN_FAILURES_BEFORE_BACKOFF: '', SIGN_IN_BACKOFF_SECONDS: '3600' });
  });
  afterAll(() => server.close());

  const timedSignIn = async (address: string, password: string): Promise<number> => {
    const started = performance.now();
    const response = await requestTokenFrom(address, server.url, 'frontend', 'frontend-secret', { grant_type: 'password', username: 'alice', password });
    const elapsed = performance.now() - started;
    expect(response.body).toEqual(WRONG_PASSWORD);
    return elapsed;
  };

  it('is at least half the time of a checked wrong password (medians of 9, interleaved)', async () => {
    for (let i = 0; i < 5; i++) await timedSignIn('127.0.0.90', `guess-${i}`);
    const refusals: number[] = [];
    const checked: number[] = [];
    for (let i = 0; i < 9; i++) {
      refusals.push(await timedSignIn('127.0.0.90', 'alice'));
      checked.push(await timedSignIn(`127.0.0.${100 + i}`, 'wrong'));
    }
    // Without the decoy a refusal takes a few milliseconds and a checked password one scrypt (~50 ms).
    expect(median(refusals)).toBeGreaterThan(median(checked) / 2);
  }, 60_000);
});
