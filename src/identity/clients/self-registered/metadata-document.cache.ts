import { LRUCache } from 'lru-cache';
import { MAX_CACHE_SECONDS } from './cache-lifetime';

/** What could not be used, told on the error page. */
export interface Refusal {
  readonly problem: string;
}

/** A fetched document and its cache lifetime (seconds, already within 5 minutes and 24 hours). */
export interface Fetched<T> {
  readonly value: T;
  readonly lifetimeSeconds: number;
}

/** A URL that failed is not fetched again for this long: a request flood cannot make Tollgate fetch on every request. */
export const FAILURE_MEMORY_MS = 10_000;
/** After a failed refetch, the cached document is used this long before the next attempt. */
export const RETRY_AFTER_FAILURE_MS = 60_000;
/** Documents fetched at once per instance: requests naming ever new URLs cannot make Tollgate open connections without bound. */
export const MAX_CONCURRENT_FETCHES = 32;

interface Entry<T> {
  readonly value: T;
  /** Fetched again after this instant. */
  refreshAt: number;
  /** Never used after this instant, even when the refetch fails: 24 hours after it was fetched. */
  readonly expiresAt: number;
}

/**
 * Documents by URL (docs/agents.md#caching): fresh for their cache lifetime, then fetched again;
 * when that refetch fails, the cached document is kept until 24 hours after it was fetched.
 * Failures are remembered for 10 seconds, concurrent misses share one fetch, and at most 32
 * documents are fetched at once.
 */
export class MetadataDocumentCache<T> {
  private readonly entries = new LRUCache<string, Entry<T>>({ max: 1000 });
  private readonly failures = new LRUCache<string, { readonly refusal: Refusal; readonly until: number }>({ max: 1000 });
  private readonly loading = new Map<string, Promise<Fetched<T> | Refusal>>();

  constructor(
    private readonly fetch: (url: string) => Promise<Fetched<T> | Refusal>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `get(url)` would fetch a document not held yet: none usable, no failure remembered, none loading. */
  wouldFetchNew(url: string): boolean {
    const now = this.now();
    const cached = this.entries.get(url);
    if (cached && now < cached.expiresAt) return false;
    const failed = this.failures.get(url);
    return !(failed && now < failed.until) && !this.loading.has(url);
  }

  async get(url: string): Promise<T | Refusal> {
    const now = this.now();
    const cached = this.entries.get(url);
    if (cached && now < cached.refreshAt) return cached.value;
    const usable = cached && now < cached.expiresAt ? cached : undefined;
    const failed = this.failures.get(url);
    if (failed && now < failed.until) return usable ? usable.value : failed.refusal;
    let load = this.loading.get(url);
    if (!load && this.loading.size >= MAX_CONCURRENT_FETCHES) {
      return usable ? usable.value : { problem: 'too many client metadata documents are being fetched right now; retry shortly' };
    }
    if (!load) {
      load = this.fetch(url).finally(() => this.loading.delete(url));
      this.loading.set(url, load);
    }
    const fetched = await load;
    if ('problem' in fetched) {
      this.failures.set(url, { refusal: fetched, until: this.now() + FAILURE_MEMORY_MS });
      if (!usable) {
        this.entries.delete(url);
        return fetched;
      }
      usable.refreshAt = Math.min(usable.expiresAt, this.now() + RETRY_AFTER_FAILURE_MS);
      return usable.value;
    }
    const fetchedAt = this.now();
    this.failures.delete(url);
    this.entries.set(url, { value: fetched.value, refreshAt: fetchedAt + fetched.lifetimeSeconds * 1000, expiresAt: fetchedAt + MAX_CACHE_SECONDS * 1000 });
    return fetched.value;
  }
}
