import CachePolicy from 'http-cache-semantics';

export const MIN_CACHE_SECONDS = 5 * 60;
export const MAX_CACHE_SECONDS = 24 * 3600;

/**
 * How long a fetched document stays fresh: what its HTTP caching headers say (RFC 9111, as
 * http-cache-semantics reads `Cache-Control`, `Expires`, `Age`), within 5 minutes and 24 hours, so
 * a document neither makes Tollgate fetch it on every request nor is trusted for days.
 */
export function cacheLifetimeSeconds(url: string, status: number, headers: Readonly<Record<string, string>>): number {
  const policy = new CachePolicy({ url, method: 'GET', headers: {} }, { status, headers }, { shared: false });
  // Rounded: the policy counts the milliseconds since it was built as age.
  const seconds = policy.storable() ? Math.round(policy.timeToLive() / 1000) : 0;
  return Math.min(MAX_CACHE_SECONDS, Math.max(MIN_CACHE_SECONDS, seconds));
}
