/** The longest wait between a worker's exit and its replacement (docs/operations.md#several-cores-workers). */
export const MAX_RESTART_DELAY_MS = 30_000;

/**
 * When a worker dies, the next one starts after a wait that doubles with each restart of the last
 * minute (1 s, 2 s, 4 s, … up to 30 s). Workers are always replaced: a crash loop is slowed down,
 * never allowed to stop the service for good, and a minute without a restart brings the wait back
 * to 1 s.
 */
export class RestartBackoff {
  private restarts: number[] = [];

  constructor(
    private readonly windowMs = 60_000,
    private readonly firstDelayMs = 1_000,
    private readonly maxDelayMs = MAX_RESTART_DELAY_MS,
  ) {}

  /** The wait before a restart at `now`, counted as made. */
  nextDelayMs(now: number): number {
    const delay = this.delayAt(now);
    this.restarts.push(now);
    return delay;
  }

  /** The wait a restart at `now` would get, without counting one. */
  delayAt(now: number): number {
    this.restarts = this.restarts.filter((at) => now - at < this.windowMs);
    return Math.min(this.firstDelayMs * 2 ** this.restarts.length, this.maxDelayMs);
  }

  /** Restarts within the window before `now`. */
  recentRestarts(now: number): number {
    this.delayAt(now);
    return this.restarts.length;
  }
}
