/**
 * When a worker that was serving dies, the next one starts after a wait that doubles with each
 * restart of the last minute (1 s, 2 s, 4 s, …); the restart after `limit` of them is refused: a
 * crash loop that restarts do not fix ends the service instead of spinning.
 */
export class RestartBudget {
  private restarts: number[] = [];

  constructor(
    private readonly limit = 5,
    private readonly windowMs = 60_000,
    private readonly firstDelayMs = 1_000,
  ) {}

  /** The wait before a restart at `now`, counted as made; undefined once `limit` restarts fall within the window. */
  nextDelayMs(now: number): number | undefined {
    this.restarts = this.restarts.filter((at) => now - at < this.windowMs);
    if (this.restarts.length >= this.limit) return undefined;
    const delay = this.firstDelayMs * 2 ** this.restarts.length;
    this.restarts.push(now);
    return delay;
  }
}
