import { AssertionReplayGuard } from './assertion-replay.guard';
import { CachedAssertionReplayGuard, type AssertionIdCache } from './cached-assertion-replay.guard';

/** A cache that remembers in a Set, can lose everything (a restart) or be down. */
class FakeCache implements AssertionIdCache {
  readonly ids = new Set<string>();
  down = false;

  async remember(clientId: string, jti: string): Promise<boolean> {
    if (this.down) throw new Error('connection refused');
    const key = `${clientId} ${jti}`;
    if (this.ids.has(key)) return false;
    this.ids.add(key);
    return true;
  }
  async forget(clientId: string, jti: string): Promise<void> {
    this.ids.delete(`${clientId} ${jti}`);
  }
  async close(): Promise<void> {}
}

class FakeRecord extends AssertionReplayGuard {
  readonly ids = new Set<string>();
  readonly calls: string[] = [];
  failing = false;

  async firstUse(clientId: string, jti: string): Promise<boolean> {
    this.calls.push(jti);
    if (this.failing) throw new Error('database unavailable');
    const key = `${clientId} ${jti}`;
    if (this.ids.has(key)) return false;
    this.ids.add(key);
    return true;
  }
}

describe('CachedAssertionReplayGuard.firstUse', () => {
  const expiresAt = new Date('2030-01-01T00:00:00Z');
  const setup = () => {
    const cache = new FakeCache();
    const record = new FakeRecord();
    return { cache, record, guard: new CachedAssertionReplayGuard(cache, record) };
  };

  it('refuses a replay the cache remembers without asking the record', async () => {
    const { record, guard } = setup();
    expect(await guard.firstUse('batch', 'j1', expiresAt)).toBe(true);
    expect(await guard.firstUse('batch', 'j1', expiresAt)).toBe(false);
    expect(record.calls).toEqual(['j1']);
  });

  it('refuses a replay the cache forgot (a restart without persistence): the record remembers it', async () => {
    const { cache, guard } = setup();
    expect(await guard.firstUse('batch', 'j1', expiresAt)).toBe(true);
    cache.ids.clear();
    expect(await guard.firstUse('batch', 'j1', expiresAt)).toBe(false);
  });

  it('lets the record decide alone while the cache is down', async () => {
    const { cache, guard } = setup();
    cache.down = true;
    expect(await guard.firstUse('batch', 'j1', expiresAt)).toBe(true);
    expect(await guard.firstUse('batch', 'j1', expiresAt)).toBe(false);
  });

  it('forgets the jti in the cache when the record fails, so that a retry is judged afresh', async () => {
    const { cache, record, guard } = setup();
    record.failing = true;
    await expect(guard.firstUse('batch', 'j1', expiresAt)).rejects.toThrow('database unavailable');
    expect(cache.ids.size).toBe(0);
    record.failing = false;
    expect(await guard.firstUse('batch', 'j1', expiresAt)).toBe(true);
  });

  it('tells clients apart: the same jti of another client is a first use', async () => {
    const { guard } = setup();
    expect(await guard.firstUse('batch', 'j1', expiresAt)).toBe(true);
    expect(await guard.firstUse('other', 'j1', expiresAt)).toBe(true);
  });
});
