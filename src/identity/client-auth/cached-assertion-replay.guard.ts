import { AssertionReplayGuard } from './assertion-replay.guard';

/** A shared, fast memory of used assertion `jti`s that may forget them (Redis without persistence). */
export interface AssertionIdCache {
  /** True when (client, jti) was not remembered and now is; false when it already was. Throws when unavailable. */
  remember(clientId: string, jti: string, expiresAt: Date): Promise<boolean>;
  forget(clientId: string, jti: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * docs/client-authentication.md: a cache refuses a replay it remembers without a query, and the
 * record (PostgreSQL) decides everything else, so a `jti` used before the cache lost its keys, or
 * while it was down, is still refused until the assertion expires.
 */
export class CachedAssertionReplayGuard extends AssertionReplayGuard {
  constructor(
    private readonly cache: AssertionIdCache,
    private readonly record: AssertionReplayGuard,
  ) {
    super();
  }

  async firstUse(clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
    // Unavailable (its client logs why): the record decides alone.
    const remembered = await this.cache.remember(clientId, jti, expiresAt).catch(() => undefined);
    if (remembered === false) return false;
    try {
      return await this.record.firstUse(clientId, jti, expiresAt);
    } catch (error) {
      // Not recorded (database unavailable, 503): the client's retry with the same assertion is judged afresh.
      if (remembered) await this.cache.forget(clientId, jti).catch(() => undefined);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.cache.close();
  }
}
