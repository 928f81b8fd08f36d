import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ValidatedAccessToken } from './access-token';

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
 */
export class VerifiedTokenCache {
  private readonly entries?: LRUCache<string, Entry>;

  constructor(
    maxEntries: number,
    private readonly maxAgeSeconds: number,
  ) {
    if (maxEntries > 0 && maxAgeSeconds > 0) this.entries = new LRUCache<string, Entry>({ max: maxEntries });
  }

  /** The validated token, unless it is unknown, expired, or `isPublished(kid)` says its key is gone. */
  get(token: string, isPublished: (kid: string) => boolean, nowSeconds = Date.now() / 1000): ValidatedAccessToken | undefined {
    if (!this.entries) return undefined;
    const key = digest(token);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.notAfter <= nowSeconds || !isPublished(entry.kid)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.token;
  }

  set(token: string, validated: ValidatedAccessToken, kid: string, nowSeconds = Date.now() / 1000): void {
    const notAfter = Math.min(validated.expiresAt, nowSeconds + this.maxAgeSeconds);
    if (!this.entries || notAfter <= nowSeconds) return;
    this.entries.set(digest(token), { token: validated, kid, notAfter });
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
