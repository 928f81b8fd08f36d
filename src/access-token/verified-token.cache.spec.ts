import type { ValidatedAccessToken } from './access-token';
import { VerifiedTokenCache } from './verified-token.cache';

const NOW = 1_800_000_000;
const published = () => true;

function validated(expiresAt = NOW + 300): ValidatedAccessToken {
  return { jwtId: 'j', subject: '1', clientId: 'frontend', scopes: ['openid'], audiences: ['api1'], issuedAt: NOW, expiresAt };
}

describe('VerifiedTokenCache', () => {
  describe('get', () => {
    it('misses for a token never set, and when the cache is off', () => {
      expect(new VerifiedTokenCache(10, 60).get('a.b.c', published, NOW)).toBeUndefined();
      const off = new VerifiedTokenCache(0, 60);
      off.set('a.b.c', validated(), 'k1', NOW);
      expect(off.get('a.b.c', published, NOW)).toBeUndefined();
    });

    it('misses once the token expires, even within the maximum age', () => {
      const cache = new VerifiedTokenCache(10, 600);
      cache.set('a.b.c', validated(NOW + 30), 'k1', NOW);
      expect(cache.get('a.b.c', published, NOW + 29)).toEqual(validated(NOW + 30));
      expect(cache.get('a.b.c', published, NOW + 30)).toBeUndefined();
    });

    it('drops an entry whose key is no longer published', () => {
      const cache = new VerifiedTokenCache(10, 600);
      cache.set('a.b.c', validated(), 'k1', NOW);
      expect(cache.get('a.b.c', (kid) => kid !== 'k1', NOW)).toBeUndefined();
      expect(cache.size).toBe(0);
      expect(cache.get('a.b.c', published, NOW)).toBeUndefined();
    });

    it('tells tokens apart by their whole text', () => {
      const cache = new VerifiedTokenCache(10, 600);
      cache.set('a.b.c', validated(), 'k1', NOW);
      expect(cache.get('a.b.d', published, NOW)).toBeUndefined();
    });
  });

  describe('set', () => {
    it('keeps an entry no longer than the maximum age', () => {
      const cache = new VerifiedTokenCache(10, 2);
      cache.set('a.b.c', validated(NOW + 3600), 'k1', NOW);
      expect(cache.get('a.b.c', published, NOW + 1.9)).toBeDefined();
      expect(cache.get('a.b.c', published, NOW + 2)).toBeUndefined();
    });

    it('holds at most maxEntries, evicting the least recently used', () => {
      const cache = new VerifiedTokenCache(2, 600);
      cache.set('t1', validated(), 'k1', NOW);
      cache.set('t2', validated(), 'k1', NOW);
      cache.get('t1', published, NOW);
      cache.set('t3', validated(), 'k1', NOW);
      expect(cache.size).toBe(2);
      expect(cache.get('t2', published, NOW)).toBeUndefined();
      expect(cache.get('t1', published, NOW)).toBeDefined();
    });

    it('does not keep a token that has already expired', () => {
      const cache = new VerifiedTokenCache(10, 600);
      cache.set('a.b.c', validated(NOW - 1), 'k1', NOW);
      expect(cache.size).toBe(0);
    });
  });
});
