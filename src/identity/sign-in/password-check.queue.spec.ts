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
    const first = queue.run(running.check, {});
    const second = queue.run(waiting.check, {});
    await expect(queue.run(pending().check, {})).rejects.toEqual(new PasswordChecksBusy(3));
    const refused = await queue.run(pending().check, {}).catch((error: PasswordChecksBusy) => error);
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
    void queue.run(running.check, {});
    const waiting = queue.run(late.check, {});
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
    void queue.run(running.check, {});
    const anonymousDone = queue.run(anonymous.check, {});
    await expect(queue.run(pending().check, {})).rejects.toBeInstanceOf(PasswordChecksBusy);
    const trustedDone = queue.run(trusted.check, { trustedUser: 'alice' });
    running.finish('done');
    await settle();
    expect([trusted.started(), anonymous.started()]).toEqual([true, false]);
    trusted.finish('trusted');
    await expect(trustedDone).resolves.toBe('trusted');
    expect(anonymous.started()).toBe(true);
    anonymous.finish('anonymous');
    await expect(anonymousDone).resolves.toBe('anonymous');
  });

  it("takes one check at a time per device-cookie user: the user's second is refused at once, and nobody else waits behind it", async () => {
    const queue = new PasswordCheckQueue({ concurrency: 1, queueLength: 2, queueTimeoutMs: 10_000 });
    const running = pending();
    const mallory = pending();
    const alice = pending();
    const stranger = pending();
    void queue.run(running.check, {});
    const malloryDone = queue.run(mallory.check, { trustedUser: 'mallory' });
    for (let i = 0; i < 5; i++) await expect(queue.run(pending().check, { trustedUser: 'mallory' })).rejects.toBeInstanceOf(PasswordChecksBusy);
    const aliceDone = queue.run(alice.check, { trustedUser: 'alice' });
    const strangerDone = queue.run(stranger.check, {});
    running.finish('done');
    await settle();
    expect([mallory.started(), alice.started(), stranger.started()]).toEqual([true, false, false]);
    mallory.finish('mallory');
    await expect(malloryDone).resolves.toBe('mallory');
    expect(alice.started()).toBe(true);
    // Her check is over: mallory may wait again, behind those who waited before her.
    const malloryAgain = pending();
    const malloryAgainDone = queue.run(malloryAgain.check, { trustedUser: 'mallory' });
    alice.finish('alice');
    await expect(aliceDone).resolves.toBe('alice');
    expect(malloryAgain.started()).toBe(true);
    malloryAgain.finish('again');
    await expect(malloryAgainDone).resolves.toBe('again');
    expect(stranger.started()).toBe(true);
    stranger.finish('stranger');
    await expect(strangerDone).resolves.toBe('stranger');
  });

  it('frees the slot of a check that failed', async () => {
    const queue = new PasswordCheckQueue({ concurrency: 1, queueLength: 0, queueTimeoutMs: 1000 });
    await expect(queue.run(() => Promise.reject(new Error('directory down')), {})).rejects.toThrow('directory down');
    await expect(queue.run(() => Promise.resolve('next'), {})).resolves.toBe('next');
  });

  it('runs everything at once when the bound is off', async () => {
    const queue = new PasswordCheckQueue({ concurrency: 0, queueLength: 0, queueTimeoutMs: 1000 });
    const checks = Array.from({ length: 50 }, () => pending());
    const results = checks.map((check) => queue.run(check.check, {}));
    expect(checks.every((check) => check.started())).toBe(true);
    checks.forEach((check, i) => check.finish(String(i)));
    await expect(Promise.all(results)).resolves.toHaveLength(50);
  });
});
