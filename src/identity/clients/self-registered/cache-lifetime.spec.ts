import { cacheLifetimeSeconds } from './cache-lifetime';

const URL = 'https://app.example/client.json';

describe('cacheLifetimeSeconds', () => {
  it('keeps a document asking for no caching 5 minutes', () => {
    expect(cacheLifetimeSeconds(URL, 200, { 'cache-control': 'no-store' })).toBe(300);
    expect(cacheLifetimeSeconds(URL, 200, { 'cache-control': 'no-cache' })).toBe(300);
    expect(cacheLifetimeSeconds(URL, 200, { 'cache-control': 'max-age=10' })).toBe(300);
    expect(cacheLifetimeSeconds(URL, 200, {})).toBe(300);
  });

  it('keeps a document asking for longer than a day at most 24 hours', () => {
    expect(cacheLifetimeSeconds(URL, 200, { 'cache-control': 'max-age=31536000' })).toBe(86_400);
    expect(cacheLifetimeSeconds(URL, 200, { expires: new Date(Date.now() + 7 * 86_400_000).toUTCString() })).toBe(86_400);
  });

  it('follows max-age between the bounds, less the Age the document already has', () => {
    expect(cacheLifetimeSeconds(URL, 200, { 'cache-control': 'max-age=3600' })).toBe(3600);
    expect(cacheLifetimeSeconds(URL, 200, { 'cache-control': 'max-age=3600', age: '600' })).toBe(3000);
  });

  it('follows Expires without max-age', () => {
    const date = new Date().toUTCString();
    const expires = new Date(Date.now() + 2 * 3600_000).toUTCString();
    expect(cacheLifetimeSeconds(URL, 200, { date, expires })).toBeGreaterThan(7100);
    expect(cacheLifetimeSeconds(URL, 200, { date, expires })).toBeLessThanOrEqual(7201);
  });
});
