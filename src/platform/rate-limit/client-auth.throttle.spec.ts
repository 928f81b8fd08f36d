import { ClientAuthThrottle, type ClientAuthLimits } from './client-auth.throttle';
import { MemoryCounterStore } from './memory-counter-store';

const defaults: ClientAuthLimits = { windowSeconds: 60, failuresPerClient: 20, failuresWithoutClient: 100, perClient: 0, perAddress: 0 };
const tooManyRequests = (retryAfterSeconds: number) =>
  expect.objectContaining({ code: 'temporarily_unavailable', status: 429, options: expect.objectContaining({ retryAfterSeconds }) });

describe('ClientAuthThrottle', () => {
  let now: number;
  let throttle: ClientAuthThrottle;
  const create = (limits: Partial<ClientAuthLimits> = {}) =>
    (throttle = new ClientAuthThrottle(new MemoryCounterStore(), { ...defaults, ...limits }, () => now));
  beforeEach(() => {
    now = 1_900_000_000_000;
    create();
  });
  const fail = async (count: number, address: string, clientId?: string) => {
    for (let i = 0; i < count; i++) await throttle.failed(address, clientId);
  };

  describe('admit', () => {
    it('refuses a pair over its budget with 429 and the seconds left in its window', async () => {
      await fail(20, '192.0.2.66', 'm2m');
      now += 15_000;
      await expect(throttle.admit('192.0.2.66', 'm2m')).rejects.toEqual(tooManyRequests(45));
    });

    it('admits a pair below its budget', async () => {
      await fail(19, '192.0.2.66', 'm2m');
      await expect(throttle.admit('192.0.2.66', 'm2m')).resolves.toBeUndefined();
    });

    it('admits the same client from another address and another client from the same address', async () => {
      await fail(25, '192.0.2.66', 'm2m');
      await expect(throttle.admit('192.0.2.10', 'm2m')).resolves.toBeUndefined();
      await expect(throttle.admit('192.0.2.66', 'frontend')).resolves.toBeUndefined();
    });

    it('admits the pair again once its window ends', async () => {
      await fail(20, '192.0.2.66', 'm2m');
      now += 60_000;
      await expect(throttle.admit('192.0.2.66', 'm2m')).resolves.toBeUndefined();
    });

    it('refuses requests naming no client from an address over its budget, and only those', async () => {
      await fail(100, '192.0.2.66');
      await expect(throttle.admit('192.0.2.66', undefined)).rejects.toEqual(tooManyRequests(60));
      await expect(throttle.admit('192.0.2.66', 'm2m')).resolves.toBeUndefined();
      await expect(throttle.admit('192.0.2.10', undefined)).resolves.toBeUndefined();
    });

    it('counts nothing when the budgets are off', async () => {
      create({ failuresPerClient: 0, failuresWithoutClient: 0 });
      await fail(500, '192.0.2.66', 'm2m');
      await fail(500, '192.0.2.66');
      await expect(throttle.admit('192.0.2.66', 'm2m')).resolves.toBeUndefined();
      await expect(throttle.admit('192.0.2.66', undefined)).resolves.toBeUndefined();
    });
  });

  describe('succeeded', () => {
    it('applies no quota by default', async () => {
      for (let i = 0; i < 5000; i++) await throttle.succeeded('192.0.2.1', 'm2m');
      await expect(throttle.succeeded('192.0.2.1', 'm2m')).resolves.toBeUndefined();
    });

    it('applies the per-client quota when turned on', async () => {
      create({ perClient: 3 });
      for (let i = 0; i < 3; i++) await throttle.succeeded(`192.0.2.${i}`, 'm2m');
      await expect(throttle.succeeded('192.0.2.9', 'm2m')).rejects.toEqual(
        expect.objectContaining({ status: 429, description: 'too many requests for this client' }),
      );
      await expect(throttle.succeeded('192.0.2.9', 'frontend')).resolves.toBeUndefined();
    });

    it('applies the per-address quota when turned on', async () => {
      create({ perAddress: 2 });
      await throttle.succeeded('192.0.2.1', 'm2m');
      await throttle.succeeded('192.0.2.1', 'frontend');
      await expect(throttle.succeeded('192.0.2.1', 'api1')).rejects.toEqual(
        expect.objectContaining({ status: 429, description: 'too many requests from this address' }),
      );
    });
  });
});
