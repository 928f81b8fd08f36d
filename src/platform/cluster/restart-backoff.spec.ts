import { RestartBackoff } from './restart-backoff';

describe('RestartBackoff.nextDelayMs', () => {
  it('never refuses a restart: the wait stops doubling at the cap', () => {
    const backoff = new RestartBackoff(60_000, 1_000, 30_000);
    const delays = [0, 1, 2, 3, 4, 5, 6, 7].map((second) => backoff.nextDelayMs(second * 1_000));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('doubles the wait with each restart of the window', () => {
    const backoff = new RestartBackoff(60_000, 500);
    expect([0, 10, 20, 30, 40].map((second) => backoff.nextDelayMs(second * 1_000))).toEqual([500, 1_000, 2_000, 4_000, 8_000]);
  });

  it('forgets restarts older than the window', () => {
    const backoff = new RestartBackoff(60_000, 1_000);
    expect(backoff.nextDelayMs(0)).toBe(1_000);
    expect(backoff.nextDelayMs(30_000)).toBe(2_000);
    expect(backoff.nextDelayMs(60_000)).toBe(2_000);
    expect(backoff.nextDelayMs(150_000)).toBe(1_000);
  });

  it('defaults to 1 s, doubling up to 30 s, over a minute', () => {
    const backoff = new RestartBackoff();
    expect(Array.from({ length: 7 }, (_, second) => backoff.nextDelayMs(second * 1_000))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(backoff.nextDelayMs(66_500)).toBe(1_000);
  });
});

describe('RestartBackoff.delayAt and recentRestarts', () => {
  it('tell the wait and the count without counting a restart', () => {
    const backoff = new RestartBackoff(60_000, 1_000);
    expect({ delay: backoff.delayAt(0), restarts: backoff.recentRestarts(0) }).toEqual({ delay: 1_000, restarts: 0 });
    backoff.nextDelayMs(0);
    backoff.nextDelayMs(1_000);
    expect({ delay: backoff.delayAt(2_000), restarts: backoff.recentRestarts(2_000) }).toEqual({ delay: 4_000, restarts: 2 });
    expect({ delay: backoff.delayAt(60_500), restarts: backoff.recentRestarts(60_500) }).toEqual({ delay: 2_000, restarts: 1 });
  });
});
