import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { OAuthError } from '../oauth/oauth-error';
import { AssertionReplayGuard } from './assertion-replay.guard';

/**
 * `jti`s in Redis (`SET … NX PX`), when `REDIS_URL` is set. Unlike throttling, replay protection
 * fails closed: without Redis an assertion cannot be checked, so the request is 503 and retried.
 */
export class RedisAssertionReplayGuard extends AssertionReplayGuard {
  private readonly logger = new Logger(RedisAssertionReplayGuard.name);
  private readonly redis: Redis;

  constructor(url: string) {
    super();
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 500, keyPrefix: 'tollgate:jti:' });
    this.redis.on('error', (error: Error) => this.logger.warn(`Redis: ${error.message}`));
  }

  async firstUse(clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
    const key = createHash('sha256').update(clientId).update('\0').update(jti).digest('base64url');
    const ttlMs = Math.max(expiresAt.getTime() - Date.now(), 1000);
    try {
      return (await this.redis.set(key, '1', 'PX', ttlMs, 'NX')) === 'OK';
    } catch (error) {
      throw OAuthError.temporarilyUnavailable(error);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
