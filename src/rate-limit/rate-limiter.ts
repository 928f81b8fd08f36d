export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Seconds until the current window ends. */
  readonly retryAfterSeconds: number;
}

/** Fixed-window request counters; also the DI token. */
export abstract class RateLimiter {
  /** Counts one request against `key` and says whether it is within `limit` for the window. */
  abstract hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
  /** Says whether `key` is still within `limit`, without counting. */
  abstract check(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
}

/** The window a moment falls in, and the seconds left in it. */
export function currentWindow(windowSeconds: number, nowMs = Date.now()): { index: number; retryAfterSeconds: number } {
  const windowMs = windowSeconds * 1000;
  const index = Math.floor(nowMs / windowMs);
  return { index, retryAfterSeconds: Math.max(1, Math.ceil(((index + 1) * windowMs - nowMs) / 1000)) };
}
