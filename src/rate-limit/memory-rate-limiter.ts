import { LRUCache } from 'lru-cache';
import { currentWindow, RateLimiter, type RateLimitDecision } from './rate-limiter';

/** Counters in this instance's memory, bounded in number (the oldest are dropped first). */
export class MemoryRateLimiter extends RateLimiter {
  private readonly counters = new LRUCache<string, { count: number }>({ max: 100_000 });

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const { index, retryAfterSeconds } = currentWindow(windowSeconds);
    const windowKey = `${key}|${index}`;
    let counter = this.counters.get(windowKey);
    if (!counter) {
      counter = { count: 0 };
      this.counters.set(windowKey, counter, { ttl: windowSeconds * 1000 });
    }
    counter.count++;
    return { allowed: counter.count <= limit, retryAfterSeconds };
  }

  async check(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const { index, retryAfterSeconds } = currentWindow(windowSeconds);
    return { allowed: (this.counters.get(`${key}|${index}`)?.count ?? 0) < limit, retryAfterSeconds };
  }
}
