import { MemoryCounterStore } from './memory-counter-store';
import { SignInThrottle, type SignInLimits } from './sign-in.throttle';

const limits: SignInLimits = { failuresBeforeBackOff: 5, backOffSeconds: 30, maxBackOffSeconds: 900, addressFailures: 50, addressWindowSeconds: 300 };

describe('SignInThrottle', () => {
  let now: number;
  let throttle: SignInThrottle;
  beforeEach(() => {
    now = 1_900_000_000_000;
    throttle = new SignInThrottle(new MemoryCounterStore(), limits, () => now);
  });
  const failTimes = async (count: number, username = 'alice', address = '192.0.2.1') => {
    for (let i = 0; i < count; i++) await throttle.recordFailure(username, address);
  };

  describe('isInBackOff', () => {
    it('is not in back-off after four failures', async () => {
      await failTimes(4);
      expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(false);
    });

    it('is in back-off for 30 s after the fifth failure', async () => {
      await failTimes(5);
      now += 29_999;
      expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(true);
      now += 1;
      expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(false);
    });

    it('doubles the back-off with each further failure, up to 15 minutes', async () => {
      await failTimes(5);
      const expected = [60, 120, 240, 480, 900, 900];
      for (const seconds of expected) {
        now += 900_000;
        await throttle.recordFailure('alice', '192.0.2.1');
        now += seconds * 1000 - 1;
        expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(true);
        now += 1;
        expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(false);
        now -= seconds * 1000;
      }
    });

    it('concerns only that username from that address', async () => {
      await failTimes(5);
      expect(await throttle.isInBackOff('alice', '192.0.2.2')).toBe(false);
      expect(await throttle.isInBackOff('bob', '192.0.2.1')).toBe(false);
    });

    it('puts an address in back-off after 50 failures across usernames in 5 minutes, until the window ends', async () => {
      for (let i = 0; i < 49; i++) await throttle.recordFailure(`user-${i}`, '192.0.2.1');
      expect(await throttle.isInBackOff('carol', '192.0.2.1')).toBe(false);
      await throttle.recordFailure('user-49', '192.0.2.1');
      expect(await throttle.isInBackOff('carol', '192.0.2.1')).toBe(true);
      expect(await throttle.isInBackOff('carol', '192.0.2.2')).toBe(false);
      now += 300_000;
      expect(await throttle.isInBackOff('carol', '192.0.2.1')).toBe(false);
    });

    it('counts an IPv6 /64 as one address', async () => {
      await failTimes(5, 'alice', '2001:db8:1:2::1');
      expect(await throttle.isInBackOff('alice', '2001:db8:1:2:ffff::9')).toBe(true);
      expect(await throttle.isInBackOff('alice', '2001:db8:1:3::1')).toBe(false);
    });

    it('is never in back-off when both limits are off', async () => {
      throttle = new SignInThrottle(new MemoryCounterStore(), { ...limits, failuresBeforeBackOff: 0, addressFailures: 0 }, () => now);
      await failTimes(100);
      expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(false);
    });
  });

  describe('with a device cookie', () => {
    it("is never held back by its address's failures, of this username or of many", async () => {
      await failTimes(5);
      for (let i = 0; i < 50; i++) await throttle.recordFailure(`user-${i}`, '192.0.2.1');
      expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(true);
      expect(await throttle.isInBackOff('alice', '192.0.2.1', 'device-a')).toBe(false);
    });

    it('is held back by its own failures alone, which leave the address and other devices alone', async () => {
      for (let i = 0; i < 5; i++) await throttle.recordFailure('alice', '192.0.2.1', 'device-a');
      expect(await throttle.isInBackOff('alice', '192.0.2.1', 'device-a')).toBe(true);
      expect(await throttle.isInBackOff('alice', '192.0.2.1', 'device-b')).toBe(false);
      expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(false);
      now += 30_000;
      expect(await throttle.isInBackOff('alice', '192.0.2.1', 'device-a')).toBe(false);
    });

    it('forgets its failures after a success', async () => {
      for (let i = 0; i < 4; i++) await throttle.recordFailure('alice', '192.0.2.1', 'device-a');
      await throttle.recordSuccess('alice', '192.0.2.1', 'device-a');
      await throttle.recordFailure('alice', '192.0.2.1', 'device-a');
      expect(await throttle.isInBackOff('alice', '192.0.2.1', 'device-a')).toBe(false);
    });
  });

  describe('recordSuccess', () => {
    it('ends the back-off and forgets the failures', async () => {
      await failTimes(5);
      await throttle.recordSuccess('alice', '192.0.2.1');
      expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(false);
      await failTimes(4);
      expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(false);
      await failTimes(1);
      now += 30_000;
      expect(await throttle.isInBackOff('alice', '192.0.2.1')).toBe(false);
    });
  });
});
