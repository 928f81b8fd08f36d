import { MemoryCounterStore } from './memory-counter-store';
import { UserCodeThrottle } from './user-code.throttle';

describe('UserCodeThrottle', () => {
  let now: number;
  let throttle: UserCodeThrottle;
  beforeEach(() => {
    now = 1_900_000_000_000;
    throttle = new UserCodeThrottle(new MemoryCounterStore(), { failures: 3, windowSeconds: 60 }, () => now);
  });
  /** Codes that turn out wrong: each admitted one counts. */
  const fail = async (subject: string, times: number) => {
    for (let i = 0; i < times; i++) expect(await throttle.admit(subject)).toBe(0);
  };

  it('lets a user enter codes until the budget of wrong ones is spent, then until the window ends', async () => {
    await fail('mallory', 3);
    expect(await throttle.admit('mallory')).toBe(60);
    now += 59_000;
    expect(await throttle.admit('mallory')).toBe(1);
    now += 1_000;
    expect(await throttle.admit('mallory')).toBe(0);
  });

  it('admits no more than the budget of codes sent at once', async () => {
    const waits = await Promise.all(Array.from({ length: 50 }, () => throttle.admit('mallory')));
    expect(waits.filter((seconds) => seconds === 0)).toHaveLength(3);
  });

  it('gives back the try of a right code', async () => {
    await fail('alice', 2);
    expect(await throttle.admit('alice')).toBe(0);
    await throttle.succeeded('alice');
    expect(await throttle.admit('alice')).toBe(0);
    expect(await throttle.admit('alice')).toBe(60);
  });

  it("never holds back another user for one user's wrong codes", async () => {
    await fail('mallory', 3);
    expect(await throttle.admit('mallory')).toBeGreaterThan(0);
    expect(await throttle.admit('alice')).toBe(0);
  });
});
