import { MemoryCounterStore } from './memory-counter-store';
import { RegistrationThrottle } from './registration.throttle';

describe('RegistrationThrottle.admit', () => {
  let now = 1_000_000;
  const throttle = () => new RegistrationThrottle(new MemoryCounterStore(1000), { perAddress: 2, windowSeconds: 60 }, () => now);

  it('refuses an address over its budget with 429 and Retry-After until the window ends', async () => {
    const registrations = throttle();
    await registrations.admit('203.0.113.1');
    await registrations.admit('203.0.113.1');
    await expect(registrations.admit('203.0.113.1')).rejects.toMatchObject({
      code: 'temporarily_unavailable',
      status: 429,
      options: { retryAfterSeconds: 60 },
    });
  });

  it('holds back no other address, and lets the address in again after the window', async () => {
    const registrations = throttle();
    for (let i = 0; i < 3; i++) await registrations.admit('203.0.113.1').catch(() => undefined);
    await expect(registrations.admit('203.0.113.2')).resolves.toBeUndefined();
    now += 61_000;
    await expect(registrations.admit('203.0.113.1')).resolves.toBeUndefined();
  });

  it('counts nothing when off', async () => {
    const off = new RegistrationThrottle(new MemoryCounterStore(1000), { perAddress: 0, windowSeconds: 60 }, () => now);
    for (let i = 0; i < 5; i++) await off.admit('203.0.113.1');
  });
});
