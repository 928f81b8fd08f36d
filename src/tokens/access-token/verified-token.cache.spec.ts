import type { ValidatedAccessToken } from './access-token';
import { tokenDigest, VerifiedTokenCache } from './verified-token.cache';

const NOW = 1_800_000_000;
const published = () => true;

function validated(expiresAt = NOW + 300): ValidatedAccessToken {
  return { jwtId: 'j', subject: '1', clientId: 'frontend', scopes: ['openid'], audiences: ['api1'], issuedAt: NOW, expiresAt };
}

/** A cache holding `tokens`: each offered twice, as two validations in a row would. */
function cacheWith(maxEntries: number, maxAgeSeconds: number, tokens: string[], expiresAt?: number): VerifiedTokenCache {
  const cache = new VerifiedTokenCache(maxEntries, maxAgeSeconds);
  for (const token of tokens) for (let time = 0; time < 2; time++) cache.offer(tokenDigest(token), validated(expiresAt), 'k1', NOW);
  return cache;
}

describe('VerifiedTokenCache', () => {
  describe('get', () => {
    it('misses for a token never offered, and when the cache is off', () => {
      expect(new VerifiedTokenCache(10, 60).get(tokenDigest('a.b.c'), published, NOW)).toBeUndefined();
      expect(cacheWith(0, 60, ['a.b.c']).get(tokenDigest('a.b.c'), published, NOW)).toBeUndefined();
    });

    it('misses once the token expires, even within the maximum age', () => {
      const cache = cacheWith(10, 600, ['a.b.c'], NOW + 30);
      expect(cache.get(tokenDigest('a.b.c'), published, NOW + 29)).toEqual(validated(NOW + 30));
      expect(cache.get(tokenDigest('a.b.c'), published, NOW + 30)).toBeUndefined();
    });

    it('drops an entry whose key is no longer published', () => {
      const cache = cacheWith(10, 600, ['a.b.c']);
      expect(cache.get(tokenDigest('a.b.c'), (kid) => kid !== 'k1', NOW)).toBeUndefined();
      expect(cache.size).toBe(0);
      expect(cache.get(tokenDigest('a.b.c'), published, NOW)).toBeUndefined();
    });

    it('tells tokens apart by their whole text', () => {
      const cache = cacheWith(10, 600, ['a.b.c']);
      expect(cache.get(tokenDigest('a.b.c'), published, NOW)).toBeDefined();
      expect(cache.get(tokenDigest('a.b.d'), published, NOW)).toBeUndefined();
    });
  });

  describe('offer', () => {
    it('keeps a token from its second validation on', () => {
      const cache = new VerifiedTokenCache(10, 600);
      cache.offer(tokenDigest('a.b.c'), validated(), 'k1', NOW);
      expect(cache.get(tokenDigest('a.b.c'), published, NOW)).toBeUndefined();
      cache.offer(tokenDigest('a.b.c'), validated(), 'k1', NOW);
      expect(cache.get(tokenDigest('a.b.c'), published, NOW)).toEqual(validated());
    });

    it('keeps no token that comes back only after more distinct tokens than the cache holds', () => {
      const cache = new VerifiedTokenCache(100, 600);
      const pool = Array.from({ length: 120 }, (_, index) => `token-${index}`);
      for (let pass = 0; pass < 3; pass++) for (const token of pool) cache.offer(tokenDigest(token), validated(), 'k1', NOW);
      // A plain LRU would hold 100 here; the filter lets one through only by rare chance.
      expect(cache.size).toBeLessThan(3);
    });

    it('keeps an entry no longer than the maximum age', () => {
      const cache = cacheWith(10, 2, ['a.b.c'], NOW + 3600);
      expect(cache.get(tokenDigest('a.b.c'), published, NOW + 1.9)).toBeDefined();
      expect(cache.get(tokenDigest('a.b.c'), published, NOW + 2)).toBeUndefined();
    });

    it('holds at most maxEntries, evicting the least recently used', () => {
      const cache = cacheWith(2, 600, ['t1', 't2']);
      cache.get(tokenDigest('t1'), published, NOW);
      cache.offer(tokenDigest('t3'), validated(), 'k1', NOW);
      cache.offer(tokenDigest('t3'), validated(), 'k1', NOW);
      expect(cache.size).toBe(2);
      expect(cache.get(tokenDigest('t2'), published, NOW)).toBeUndefined();
      expect(cache.get(tokenDigest('t1'), published, NOW)).toBeDefined();
      expect(cache.get(tokenDigest('t3'), published, NOW)).toBeDefined();
    });

    it('does not keep a token that has already expired', () => {
      expect(cacheWith(10, 600, ['a.b.c'], NOW - 1).size).toBe(0);
    });
  });
});
