import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import type { AssertionIdCache } from './cached-assertion-replay.guard';

/**
 * Used assertion `jti`s in Redis (`SET … NX PX`), when `REDIS_URL` is set: shared by every instance
 * and quick to refuse a replay, but forgotten when Redis restarts without persistence, so PostgreSQL
 * stays the record (CachedAssertionReplayGuard).
 */
export class RedisAssertionIdCache implements AssertionIdCache {
  private readonly logger = new Logger(RedisAssertionIdCache.name);
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 500, keyPrefix: 'tollgate:jti:' });
    this.redis.on('error', (error: Error) => this.logger.warn(`Redis: ${error.message}`));
  }

  async remember(clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
    const ttlMs = Math.max(expiresAt.getTime() - Date.now(), 1000);
    return (await this.redis.set(keyOf(clientId, jti), '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  async forget(clientId: string, jti: string): Promise<void> {
    await this.redis.del(keyOf(clientId, jti));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

function keyOf(clientId: string, jti: string): string {
  return createHash('sha256').update(clientId).update('\0').update(jti).digest('base64url');
}
