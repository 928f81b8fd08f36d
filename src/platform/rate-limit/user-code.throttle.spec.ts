import { MemoryCounterStore } from './memory-counter-store';
import { UserCodeThrottle } from './user-code.throttle';

describe('UserCodeThrottle', () => {
  let now: number;
  let throttle: UserCodeThrottle;
  beforeEach(() => {
    now = 1_900_000_000_000;
    throttle = new UserCodeThrottle(new MemoryCounterStore(), { failures: 3, windowSeconds: 60 }, () => now);
  });
  const fail = async (subject: string, times: number) => {
    for (let i = 0; i < times; i++) await throttle.recordFailure(subject);
  };

  it('lets a user enter codes until the budget of wrong ones is spent, then until the window ends', async () => {
    await fail('mallory', 2);
    expect(await throttle.waitSeconds('mallory')).toBe(0);
    await fail('mallory', 1);
    expect(await throttle.waitSeconds('mallory')).toBe(60);
    now += 59_000;
    expect(await throttle.waitSeconds('mallory')).toBe(1);
    now += 1_000;
    expect(await throttle.waitSeconds('mallory')).toBe(0);
  });

  it("never holds back another user for one user's wrong codes", async () => {
    await fail('mallory', 10);
    expect(await throttle.waitSeconds('mallory')).toBeGreaterThan(0);
    expect(await throttle.waitSeconds('alice')).toBe(0);
  });
});
