import { MAX_CONCURRENT_FETCHES, MetadataDocumentCache, RETRY_AFTER_FAILURE_MS, type Fetched, type Refusal } from './metadata-document.cache';

const URL = 'https://app.example/client.json';
const MINUTE = 60_000;

/** A document server the test scripts: each fetch takes the next answer. */
function scripted(...answers: (Fetched<string> | Refusal)[]) {
  let now = 1_000_000;
  const fetched: number[] = [];
  const cache = new MetadataDocumentCache<string>(
    async () => {
      fetched.push(now);
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      return answer;
    },
    () => now,
  );
  return { cache, fetched, advance: (ms: number) => (now += ms) };
}

const doc = (value: string, lifetimeSeconds = 300): Fetched<string> => ({ value, lifetimeSeconds });

describe('MetadataDocumentCache.get', () => {
  it('tells a failure, and does not fetch the URL again for 10 seconds', async () => {
    const { cache, fetched, advance } = scripted({ problem: 'refused' }, doc('v1'));
    expect(await cache.get(URL)).toEqual({ problem: 'refused' });
    advance(9_000);
    expect(await cache.get(URL)).toEqual({ problem: 'refused' });
    expect(fetched).toHaveLength(1);
    advance(2_000);
    expect(await cache.get(URL)).toBe('v1');
  });

  it('serves a document for its lifetime without fetching, then fetches it again', async () => {
    const { cache, fetched, advance } = scripted(doc('v1', 600), doc('v2'));
    expect(await cache.get(URL)).toBe('v1');
    advance(9 * MINUTE);
    expect(await cache.get(URL)).toBe('v1');
    expect(fetched).toHaveLength(1);
    advance(2 * MINUTE);
    expect(await cache.get(URL)).toBe('v2');
  });

  it('keeps the cached document when a refetch fails, retried every minute, until 24 hours after it was fetched', async () => {
    expect(RETRY_AFTER_FAILURE_MS).toBe(MINUTE);
    const { cache, fetched, advance } = scripted(doc('v1'), { problem: 'down' }, { problem: 'down' }, { problem: 'still down' });
    expect(await cache.get(URL)).toBe('v1');
    advance(6 * MINUTE);
    expect(await cache.get(URL)).toBe('v1');
    expect(fetched).toHaveLength(2);
    advance(MINUTE - 1);
    expect(await cache.get(URL)).toBe('v1');
    expect(fetched).toHaveLength(2);
    advance(1);
    expect(await cache.get(URL)).toBe('v1');
    expect(fetched).toHaveLength(3);
    advance(24 * 60 * MINUTE);
    expect(await cache.get(URL)).toEqual({ problem: 'still down' });
  });

  it('shares one fetch among concurrent requests', async () => {
    const { cache, fetched } = scripted(doc('v1'));
    expect(await Promise.all([cache.get(URL), cache.get(URL), cache.get(URL)])).toEqual(['v1', 'v1', 'v1']);
    expect(fetched).toHaveLength(1);
  });

  it('fetches at most 32 documents at once, refusing more until one is done', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cache = new MetadataDocumentCache<string>(async (url) => {
      await gate;
      return doc(url);
    });
    const pending = Array.from({ length: MAX_CONCURRENT_FETCHES }, (_, i) => cache.get(`${URL}?${i}`));
    expect(await cache.get(`${URL}?extra`)).toEqual({ problem: expect.stringContaining('too many') });
    release();
    expect(await Promise.all(pending)).toHaveLength(MAX_CONCURRENT_FETCHES);
    expect(await cache.get(`${URL}?extra`)).toBe(`${URL}?extra`);
  });
});
