import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ValidatedAccessToken } from './access-token';
import { RecentDigests } from './recent-digests';

interface Entry {
  readonly token: ValidatedAccessToken;
  /** The key that verified it: when that key is no longer published, the entry is dropped. */
  readonly kid: string;
  /** Epoch seconds: the token's `exp`, or sooner by `maxAgeSeconds`. */
  readonly notAfter: number;
}

/**
 * Access tokens that passed validation, by the SHA-256 of their text (docs/tokens.md#validation),
 * so that a token presented again costs a hash and a lookup instead of a signature check. An
 * entry lives until the token's `exp` and at most `maxAgeSeconds`. What can change while a token
 * is valid is not cached here: callers still check the deny list and the user on every request.
 *
 * A token is kept from its second validation on, and only if its first was among the last
 * `maxEntries` distinct tokens: one that comes back later than that would have been evicted
 * before its next use, so keeping it would only cost memory and garbage collection.
 */
export class VerifiedTokenCache {
  private readonly entries?: LRUCache<string, Entry>;
  private readonly recent?: RecentDigests;
  /** Lookups answered from the cache, and lookups that were not (an expired or dropped entry included). */
  readonly lookups = { hits: 0, misses: 0 };

  constructor(
    maxEntries: number,
    private readonly maxAgeSeconds: number,
  ) {
    if (maxEntries <= 0 || maxAgeSeconds <= 0) return;
    this.entries = new LRUCache<string, Entry>({ max: maxEntries });
    this.recent = new RecentDigests(maxEntries);
  }

  /** The validated token, unless it is unknown, expired, or `isPublished(kid)` says its key is gone. */
  get(digest: string, isPublished: (kid: string) => boolean, nowSeconds = Date.now() / 1000): ValidatedAccessToken | undefined {
    if (!this.entries) return undefined;
    const entry = this.entries.get(digest);
    if (entry && (entry.notAfter <= nowSeconds || !isPublished(entry.kid))) this.entries.delete(digest);
    else if (entry) {
      this.lookups.hits++;
      return entry.token;
    }
    this.lookups.misses++;
    return undefined;
  }

  /** Keeps a token that just passed validation, if its previous validation was recent enough (above). */
  offer(digest: string, validated: ValidatedAccessToken, kid: string, nowSeconds = Date.now() / 1000): void {
    const notAfter = Math.min(validated.expiresAt, nowSeconds + this.maxAgeSeconds);
    if (!this.entries || !this.recent || notAfter <= nowSeconds) return;
    if (this.recent.seenBefore(digest)) this.entries.set(digest, { token: validated, kid, notAfter });
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}

/** What the cache is keyed by: the SHA-256 of the token's text, one character per byte ('binary', that is latin1). */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('binary');
}
