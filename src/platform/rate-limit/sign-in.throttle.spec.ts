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
  /** Attempts that turn out wrong: each admitted one counts as a failure. */
  const failTimes = async (count: number, username = 'alice', address = '192.0.2.1', deviceId?: string) => {
    for (let i = 0; i < count; i++) expect(await throttle.admit(username, address, deviceId)).toBe(true);
  };

  describe('admit', () => {
    it('admits a fifth attempt after four failures', async () => {
      await failTimes(4);
      expect(await throttle.admit('alice', '192.0.2.1')).toBe(true);
    });

    it('refuses for 30 s after the fifth failure, without counting the refusals', async () => {
      await failTimes(5);
      now += 29_999;
      for (let i = 0; i < 10; i++) expect(await throttle.admit('alice', '192.0.2.1')).toBe(false);
      now += 1;
      expect(await throttle.admit('alice', '192.0.2.1')).toBe(true);
      // That sixth failure doubled the back-off, not the ten refusals.
      now += 59_999;
      expect(await throttle.admit('alice', '192.0.2.1')).toBe(false);
      now += 1;
      expect(await throttle.admit('alice', '192.0.2.1')).toBe(true);
    });

    it('doubles the back-off with each further failure, up to 15 minutes', async () => {
      await failTimes(5);
      now += 30_000;
      for (const seconds of [60, 120, 240, 480, 900, 900]) {
        expect(await throttle.admit('alice', '192.0.2.1')).toBe(true);
        now += seconds * 1000 - 1;
        expect(await throttle.admit('alice', '192.0.2.1')).toBe(false);
        now += 1;
      }
    });

    it('admits no more than the budget of attempts sent at once', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => throttle.admit('alice', '192.0.2.1')));
      expect(answers.filter(Boolean)).toHaveLength(5);
    });

    it('concerns only that username from that address', async () => {
      await failTimes(5);
      expect(await throttle.admit('alice', '192.0.2.2')).toBe(true);
      expect(await throttle.admit('bob', '192.0.2.1')).toBe(true);
    });

    it('puts an address in back-off after 50 attempts across usernames in 5 minutes, until the window ends', async () => {
      for (let i = 0; i < 49; i++) await failTimes(1, `user-${i}`);
      expect(await throttle.admit('carol', '192.0.2.1')).toBe(true);
      expect(await throttle.admit('dave', '192.0.2.1')).toBe(false);
      expect(await throttle.admit('dave', '192.0.2.2')).toBe(true);
      now += 300_000;
      expect(await throttle.admit('dave', '192.0.2.1')).toBe(true);
    });

    it('counts an IPv6 /64 as one address', async () => {
      await failTimes(5, 'alice', '2001:db8:1:2::1');
      expect(await throttle.admit('alice', '2001:db8:1:2:ffff::9')).toBe(false);
      expect(await throttle.admit('alice', '2001:db8:1:3::1')).toBe(true);
    });

    it('always admits when both limits are off', async () => {
      throttle = new SignInThrottle(new MemoryCounterStore(), { ...limits, failuresBeforeBackOff: 0, addressFailures: 0 }, () => now);
      await failTimes(100);
    });
  });

  describe('with a device cookie', () => {
    it("is never held back by its address's failures, of this username or of many", async () => {
      await failTimes(5);
      for (let i = 0; i < 50; i++) await throttle.admit(`user-${i}`, '192.0.2.1');
      expect(await throttle.admit('alice', '192.0.2.1')).toBe(false);
      expect(await throttle.admit('alice', '192.0.2.1', 'device-a')).toBe(true);
    });

    it('is held back by its own failures alone, which leave the address and other devices alone', async () => {
      await failTimes(5, 'alice', '192.0.2.1', 'device-a');
      expect(await throttle.admit('alice', '192.0.2.1', 'device-a')).toBe(false);
      expect(await throttle.admit('alice', '192.0.2.1', 'device-b')).toBe(true);
      expect(await throttle.admit('alice', '192.0.2.1')).toBe(true);
      now += 30_000;
      expect(await throttle.admit('alice', '192.0.2.1', 'device-a')).toBe(true);
    });

    it('forgets its failures after a success', async () => {
      await failTimes(4, 'alice', '192.0.2.1', 'device-a');
      await throttle.succeeded('alice', '192.0.2.1', 'device-a');
      await failTimes(4, 'alice', '192.0.2.1', 'device-a');
      expect(await throttle.admit('alice', '192.0.2.1', 'device-a')).toBe(true);
    });
  });

  describe('succeeded', () => {
    it('ends the back-off and forgets the failures', async () => {
      await failTimes(5);
      await throttle.succeeded('alice', '192.0.2.1');
      await failTimes(4);
      expect(await throttle.admit('alice', '192.0.2.1')).toBe(true);
      now += 29_999;
      expect(await throttle.admit('alice', '192.0.2.1')).toBe(false);
    });

    it("gives the attempt back to the address's budget: successful sign-ins never put an address in back-off", async () => {
      for (let i = 0; i < 200; i++) {
        expect(await throttle.admit(`user-${i}`, '192.0.2.1')).toBe(true);
        await throttle.succeeded(`user-${i}`, '192.0.2.1');
      }
      for (let i = 0; i < 50; i++) await failTimes(1, `guess-${i}`);
    });
  });
});
