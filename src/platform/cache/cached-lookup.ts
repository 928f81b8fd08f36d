import { LRUCache } from 'lru-cache';

interface Entry<V> {
  readonly value?: V;
}

/**
 * Values by key from memory, loaded at most once per `ttlSeconds` (misses included) and bounded
 * in number; concurrent misses for one key share one load. A TTL of 0 loads every time.
 */
export class CachedLookup<V extends object> {
  private readonly cache?: LRUCache<string, Entry<V>>;

  constructor(
    private readonly load: (key: string) => Promise<V | undefined>,
    ttlSeconds: number,
    maxEntries = 10_000,
  ) {
    if (ttlSeconds > 0) {
      this.cache = new LRUCache<string, Entry<V>>({
        max: maxEntries,
        // Keys may be whatever a request sent (misses are cached too): bound their total length as well.
        maxSize: maxEntries * 512,
        sizeCalculation: (_entry, key) => key.length + 64,
        ttl: ttlSeconds * 1000,
        fetchMethod: async (key) => ({ value: await this.load(key) }),
      });
    }
  }

  async get(key: string): Promise<V | undefined> {
    if (!this.cache) return this.load(key);
    return (await this.cache.fetch(key))?.value;
  }
}
