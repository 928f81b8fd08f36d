import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { createLocalJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import { JwkSetFetcher } from './jwk-set.fetcher';

export interface JwkSetCachePolicy {
  /** How long a fetched set is used before it is fetched again (a SPIFFE refresh hint overrides it, within bounds). */
  readonly maxAgeMs: number;
  /** An unknown `kid` refetches the set at most this often. */
  readonly unknownKidRefetchMs: number;
  /** After a failed fetch, how long to wait before trying again (the previous keys keep serving). */
  readonly failureBackoffMs: number;
  readonly now: () => number;
}

export const JWK_SET_CACHE_POLICY = Symbol('JWK_SET_CACHE_POLICY');
export const DEFAULT_JWK_SET_CACHE_POLICY: JwkSetCachePolicy = {
  maxAgeMs: 10 * 60_000,
  unknownKidRefetchMs: 60_000,
  failureBackoffMs: 10_000,
  now: Date.now,
};
const MIN_REFRESH_HINT_MS = 30_000;
const MAX_REFRESH_HINT_MS = 24 * 3600_000;

interface Entry {
  verifyKey?: JWTVerifyGetKey;
  fetchedAt: number;
  maxAgeMs: number;
  attemptedAt?: number;
  inFlight?: Promise<void>;
}

/**
 * The one cache of remote JWK Sets (client `jwks_uri`, issuer `jwks_uri`, SPIFFE bundle endpoints),
 * shared by every verifier (docs/trusted-issuers.md). Concurrent requests share one fetch; an
 * unknown `kid` refetches at most once per `unknownKidRefetchMs`, however many requests carry one;
 * a failed fetch keeps the previous keys and is retried only after `failureBackoffMs`.
 */
@Injectable()
export class RemoteJwkSetCache {
  private readonly logger = new Logger(RemoteJwkSetCache.name);
  private readonly policy: JwkSetCachePolicy;
  private readonly entries = new LRUCache<string, Entry>({ max: 10_000 });

  constructor(
    private readonly fetcher: JwkSetFetcher,
    @Optional() @Inject(JWK_SET_CACHE_POLICY) policy?: JwkSetCachePolicy,
  ) {
    this.policy = policy ?? DEFAULT_JWK_SET_CACHE_POLICY;
  }

  /** A `jose` key resolver for the set at `uri`; `spiffe` reads it as a SPIFFE trust bundle. */
  keyResolver(uri: string, spiffe: boolean): JWTVerifyGetKey {
    return async (header, token) => {
      const entry = this.entry(`${spiffe ? 'spiffe' : 'jwks'} ${uri}`);
      await this.ensureFresh(entry, uri, spiffe);
      try {
        return await this.resolve(entry, header, token);
      } catch (error) {
        if (!(error instanceof errors.JWKSNoMatchingKey) || !(await this.refetchForUnknownKey(entry, uri, spiffe))) throw error;
        return this.resolve(entry, header, token);
      }
    };
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { fetchedAt: 0, maxAgeMs: this.policy.maxAgeMs };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private resolve(entry: Entry, ...args: Parameters<JWTVerifyGetKey>): ReturnType<JWTVerifyGetKey> {
    if (!entry.verifyKey) throw new errors.JWKSNoMatchingKey('the JWK Set could not be fetched');
    return entry.verifyKey(...args);
  }

  private async ensureFresh(entry: Entry, uri: string, spiffe: boolean): Promise<void> {
    const now = this.policy.now();
    if (entry.verifyKey && now - entry.fetchedAt < entry.maxAgeMs) return;
    if (entry.inFlight) return entry.inFlight;
    if (entry.attemptedAt !== undefined && now - entry.attemptedAt < this.policy.failureBackoffMs) return;
    return this.refetch(entry, uri, spiffe);
  }

  /** True when the set was (or is being) fetched again for this request. */
  private async refetchForUnknownKey(entry: Entry, uri: string, spiffe: boolean): Promise<boolean> {
    if (entry.inFlight) {
      await entry.inFlight;
      return true;
    }
    if (entry.attemptedAt !== undefined && this.policy.now() - entry.attemptedAt < this.policy.unknownKidRefetchMs) return false;
    await this.refetch(entry, uri, spiffe);
    return true;
  }

  private refetch(entry: Entry, uri: string, spiffe: boolean): Promise<void> {
    entry.attemptedAt = this.policy.now();
    entry.inFlight = this.fetcher
      .fetch(uri, spiffe)
      .then(({ jwks, refreshHintSeconds }) => {
        entry.verifyKey = createLocalJWKSet(jwks);
        entry.fetchedAt = this.policy.now();
        entry.maxAgeMs = refreshHintSeconds === undefined ? this.policy.maxAgeMs : clamp(refreshHintSeconds * 1000, MIN_REFRESH_HINT_MS, MAX_REFRESH_HINT_MS);
      })
      .catch((error: unknown) => {
        // The URI is operator configuration, not a secret; the keys, if any, keep serving.
        this.logger.warn(`Fetching the JWK Set at ${uri} failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        entry.inFlight = undefined;
      });
    return entry.inFlight;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
