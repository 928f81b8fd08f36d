import { MemoryCounterStore } from '../../platform/rate-limit/memory-counter-store';
import { SignInThrottle } from '../../platform/rate-limit/sign-in.throttle';
import type { User } from '../users/user';
import { PasswordCheck } from './password-check';
import { PasswordCheckQueue, type PasswordCheckLane } from './password-check.queue';

const alice: User = { subjectId: '1', username: 'alice', passwordHash: 'scrypt$…', enabled: true, claims: {}, roles: [] };

/** A directory that knows alice/alice, and a hasher that records what it hashed. */
function setUp(concurrency = 1) {
  const hashed: (string | undefined)[] = [];
  const checked: string[] = [];
  const users = {
    authenticate: async (username: string, password: string) => {
      checked.push(username);
      return username === 'alice' && password === 'alice' ? alice : undefined;
    },
  };
  const hasher = {
    verify: async (password: string, encoded: string | undefined) => {
      hashed.push(encoded);
      return false;
    },
  };
  const throttle = new SignInThrottle(new MemoryCounterStore(), {
    failuresBeforeBackOff: 5,
    backOffSeconds: 30,
    maxBackOffSeconds: 900,
    addressFailures: 50,
    addressWindowSeconds: 300,
  });
  const lanes: (string | undefined)[] = [];
  const queue = new PasswordCheckQueue({ concurrency, queueLength: 4, queueTimeoutMs: 10_000 });
  const recordingQueue = {
    run: <T>(check: () => Promise<T>, options: PasswordCheckLane) => {
      lanes.push(options.trustedUser);
      return queue.run(check, options);
    },
  };
  return { check: new PasswordCheck(users, hasher, throttle, recordingQueue), hashed, checked, lanes };
}

describe('PasswordCheck', () => {
  it('refuses during back-off without asking the directory, after hashing a decoy in the queue', async () => {
    const { check, hashed, checked, lanes } = setUp();
    for (let i = 0; i < 5; i++)
      await expect(check.check({ username: 'alice', password: 'x', address: '192.0.2.1' })).resolves.toEqual({ refusal: 'invalid_credentials' });
    await expect(check.check({ username: 'alice', password: 'alice', address: '192.0.2.1' })).resolves.toEqual({ refusal: 'back_off' });
    expect(checked).toHaveLength(5);
    expect(hashed).toEqual([undefined]);
    expect(lanes).toEqual(Array(6).fill(undefined));
  });

  it('checks no more passwords than the back-off allows when twenty arrive at once, the right one among them', async () => {
    const { check, checked } = setUp(0);
    const passwords = [...Array.from({ length: 19 }, (_, i) => `guess-${i}`), 'alice'];
    const results = await Promise.all(passwords.map((password) => check.check({ username: 'alice', password, address: '192.0.2.1' })));
    expect(checked).toHaveLength(5);
    expect(results.filter((result) => result.refusal === 'back_off')).toHaveLength(15);
  });

  it("signs in a device-cookie holder in its own lane whatever its address's back-off", async () => {
    const { check, lanes } = setUp();
    for (let i = 0; i < 5; i++) await check.check({ username: 'alice', password: 'x', address: '192.0.2.1' });
    await expect(check.check({ username: 'alice', password: 'alice', address: '192.0.2.1', deviceId: 'device-a' })).resolves.toEqual({ user: alice });
    expect(lanes.at(-1)).toBe('alice');
  });
});
