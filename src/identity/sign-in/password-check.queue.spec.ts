import { PasswordCheckQueue, PasswordChecksBusy } from './password-check.queue';

/** A check that finishes when the test says so. */
function pending(): { check: () => Promise<string>; finish: (value: string) => void; started: () => boolean } {
  let finish: (value: string) => void = () => undefined;
  let started = false;
  const promise = new Promise<string>((resolve) => (finish = resolve));
  return {
    check: () => {
      started = true;
      return promise;
    },
    finish: (value) => finish(value),
    started: () => started,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PasswordCheckQueue', () => {
  afterEach(() => jest.useRealTimers());

  it('refuses at once, with 503 and Retry-After, a check whose lane is full', async () => {
    const queue = new PasswordCheckQueue({ concurrency: 1, queueLength: 1, queueTimeoutMs: 2500 });
    const running = pending();
    const waiting = pending();
    const first = queue.run(running.check, { trustedDevice: false });
    const second = queue.run(waiting.check, { trustedDevice: false });
    await expect(queue.run(pending().check, { trustedDevice: false })).rejects.toEqual(new PasswordChecksBusy(3));
    const refused = await queue.run(pending().check, { trustedDevice: false }).catch((error: PasswordChecksBusy) => error);
    expect(refused).toMatchObject({ code: 'temporarily_unavailable', status: 503, options: { retryAfterSeconds: 3 } });
    running.finish('a');
    waiting.finish('b');
    await expect(Promise.all([first, second])).resolves.toEqual(['a', 'b']);
  });

  it('refuses a check that waited past the deadline, and gives its place to no one', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const queue = new PasswordCheckQueue({ concurrency: 1, queueLength: 4, queueTimeoutMs: 1000 });
    const running = pending();
    const late = pending();
    void queue.run(running.check, { trustedDevice: false });
    const waiting = queue.run(late.check, { trustedDevice: false });
    jest.advanceTimersByTime(1000);
    await expect(waiting).rejects.toBeInstanceOf(PasswordChecksBusy);
    running.finish('done');
    await settle();
    expect(late.started()).toBe(false);
  });

  it('starts device-cookie holders before earlier waiters without one, even when the others are full', async () => {
    const queue = new PasswordCheckQueue({ concurrency: 1, queueLength: 1, queueTimeoutMs: 10_000 });
    const running = pending();
    const anonymous = pending();
    const trusted = pending();
    void queue.run(running.check, { trustedDevice: false });
    const anonymousDone = queue.run(anonymous.check, { trustedDevice: false });
    await expect(queue.run(pending().check, { trustedDevice: false })).rejects.toBeInstanceOf(PasswordChecksBusy);
    const trustedDone = queue.run(trusted.check, { trustedDevice: true });
    running.finish('done');
    await settle();
    expect([trusted.started(), anonymous.started()]).toEqual([true, false]);
    trusted.finish('trusted');
    await expect(trustedDone).resolves.toBe('trusted');
    expect(anonymous.started()).toBe(true);
    anonymous.finish('anonymous');
    await expect(anonymousDone).resolves.toBe('anonymous');
  });

  it('frees the slot of a check that failed', async () => {
    const queue = new PasswordCheckQueue({ concurrency: 1, queueLength: 0, queueTimeoutMs: 1000 });
    await expect(queue.run(() => Promise.reject(new Error('directory down')), { trustedDevice: false })).rejects.toThrow('directory down');
    await expect(queue.run(() => Promise.resolve('next'), { trustedDevice: false })).resolves.toBe('next');
  });

  it('runs everything at once when the bound is off', async () => {
    const queue = new PasswordCheckQueue({ concurrency: 0, queueLength: 0, queueTimeoutMs: 1000 });
    const checks = Array.from({ length: 50 }, () => pending());
    const results = checks.map((check) => queue.run(check.check, { trustedDevice: false }));
    expect(checks.every((check) => check.started())).toBe(true);
    checks.forEach((check, i) => check.finish(String(i)));
    await expect(Promise.all(results)).resolves.toHaveLength(50);
  });
});
