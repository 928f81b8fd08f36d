import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { currentWindow, RateLimiter, type RateLimitDecision } from './rate-limiter';

/**
 * Counters shared by every instance through Redis (INCR + PEXPIRE on a per-window key). When Redis
 * cannot be reached the limiter lets requests through and logs it: an outage of the limiter must
 * not become an outage of the token service.
 */
export class RedisRateLimiter extends RateLimiter {
  private readonly logger = new Logger(RedisRateLimiter.name);
  private readonly redis: Redis;

  constructor(url: string) {
    super();
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 200, keyPrefix: 'tollgate:rl:' });
    this.redis.on('error', (error: Error) => this.logger.warn(`Redis: ${error.message}`));
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const { index, retryAfterSeconds } = currentWindow(windowSeconds);
    const windowKey = `${key}|${index}`;
    try {
      const results = await this.redis.multi().incr(windowKey).pexpire(windowKey, windowSeconds * 1000).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      return { allowed: count <= limit, retryAfterSeconds };
    } catch (error) {
      this.logger.warn(`Rate limit not applied: ${(error as Error).message}`);
      return { allowed: true, retryAfterSeconds };
    }
  }

  async check(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const { index, retryAfterSeconds } = currentWindow(windowSeconds);
    try {
      return { allowed: Number((await this.redis.get(`${key}|${index}`)) ?? 0) < limit, retryAfterSeconds };
    } catch {
      return { allowed: true, retryAfterSeconds };
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
