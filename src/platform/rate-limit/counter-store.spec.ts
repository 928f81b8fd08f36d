import { spawnRedis, type SpawnedRedis } from '../../../test/support/redis-server';
import { CounterStore, type BackOffPolicy } from './counter-store';
import { MemoryCounterStore } from './memory-counter-store';
import { RedisCounterStore } from './redis-counter-store';

const policy: BackOffPolicy = { threshold: 3, baseMs: 30_000, maxMs: 900_000 };
const T0 = 1_900_000_000_000;

/** The same behaviour from both stores: the throttles cannot tell them apart. */
function describeStore(name: string, create: () => Promise<{ store: CounterStore; close: () => Promise<void> }>): void {
  describe(name, () => {
    let store: CounterStore;
    let close: () => Promise<void>;
    let prefix = 0;
    const key = (name: string) => `spec-${prefix}-${name}`;
    beforeAll(async () => ({ store, close } = await create()));
    beforeEach(() => void prefix++);
    afterAll(() => close());

    describe('hit and peek', () => {
      it('counts hits in a window that opens at the first hit', async () => {
        await store.apply([{ kind: 'hit', key: key('w'), windowMs: 60_000, limit: 5 }], T0);
        const [second] = await store.apply([{ kind: 'hit', key: key('w'), windowMs: 60_000, limit: 5 }], T0 + 10_000);
        expect(second).toEqual({ count: 2, untilMs: T0 + 60_000 });
        expect(await store.apply([{ kind: 'peek', key: key('w') }], T0 + 20_000)).toEqual([{ count: 2, untilMs: T0 + 60_000 }]);
      });

      it('reads nothing for an unknown key', async () => {
        expect(await store.apply([{ kind: 'peek', key: key('none') }], T0)).toEqual([{ count: 0, untilMs: 0 }]);
      });

      it('answers several operations at once, in order', async () => {
        const readings = await store.apply(
          [
            { kind: 'hit', key: key('a'), windowMs: 1000, limit: 1 },
            { kind: 'hit', key: key('a'), windowMs: 1000, limit: 1 },
            { kind: 'peek', key: key('b') },
          ],
          T0,
        );
        expect(readings).toEqual([
          { count: 1, untilMs: T0 + 1000 },
          { count: 2, untilMs: T0 + 1000 },
          { count: 0, untilMs: 0 },
        ]);
      });
    });

    describe('fail (back-off)', () => {
      it('blocks from the threshold on, doubling up to the maximum', async () => {
        const fail = (at: number) => store.apply([{ kind: 'fail', key: key('u'), policy }], at).then(([reading]) => reading);
        expect(await fail(T0)).toEqual({ count: 1, untilMs: 0 });
        expect(await fail(T0)).toEqual({ count: 2, untilMs: 0 });
        expect(await fail(T0)).toEqual({ count: 3, untilMs: T0 + 30_000 });
        expect(await fail(T0 + 30_000)).toEqual({ count: 4, untilMs: T0 + 90_000 });
        expect(await fail(T0 + 90_000)).toEqual({ count: 5, untilMs: T0 + 210_000 });
        for (let i = 0; i < 10; i++) await fail(T0 + 210_000);
        expect(await fail(T0 + 210_000)).toEqual({ count: 16, untilMs: T0 + 210_000 + 900_000 });
      });

      it('is forgotten on clear', async () => {
        for (let i = 0; i < 3; i++) await store.apply([{ kind: 'fail', key: key('u'), policy }], T0);
        await store.apply([{ kind: 'clear', key: key('u') }], T0);
        expect(await store.apply([{ kind: 'peek', key: key('u') }], T0)).toEqual([{ count: 0, untilMs: 0 }]);
      });
    });

    describe('gates (attempts counted before they are made)', () => {
      const gates = (back: string, window: string) =>
        [
          { kind: 'fail', key: key(back), policy, gate: true },
          { kind: 'hit', key: key(window), windowMs: 60_000, limit: 5, gate: true },
        ] as const;

      it("counts all of a request's gates, and none once one of their keys blocks", async () => {
        for (let i = 1; i <= 3; i++) expect((await store.apply(gates('u', 'w'), T0)).map(({ count }) => count)).toEqual([i, i]);
        // The third failure started a back-off: the next request's gates are refused, nothing is counted.
        expect(await store.apply(gates('u', 'w'), T0 + 1)).toEqual([
          { count: 3, untilMs: T0 + 30_000, refused: true },
          { count: 3, untilMs: T0 + 60_000, refused: true },
        ]);
        expect(await store.apply(gates('other', 'w'), T0 + 1)).toEqual([
          { count: 1, untilMs: 0 },
          { count: 4, untilMs: T0 + 60_000 },
        ]);
      });

      it('refuses a window gate at its limit, and lets the other operations of the request run', async () => {
        const gate = { kind: 'hit', key: key('w'), windowMs: 60_000, limit: 2, gate: true } as const;
        await store.apply([gate, gate], T0);
        expect(await store.apply([gate, { kind: 'hit', key: key('plain'), windowMs: 60_000, limit: 2 }], T0)).toEqual([
          { count: 2, untilMs: T0 + 60_000, refused: true },
          { count: 1, untilMs: T0 + 60_000 },
        ]);
      });

      it('admits exactly the budget of a burst sent at once', async () => {
        const gate = { kind: 'hit', key: key('burst'), windowMs: 60_000, limit: 5, gate: true } as const;
        const readings = await Promise.all(Array.from({ length: 20 }, () => store.apply([gate], T0)));
        expect(readings.filter(([reading]) => !reading.refused)).toHaveLength(5);
      });
    });

    describe('release', () => {
      it('gives back one hit, never below zero, and creates no key', async () => {
        const hit = { kind: 'hit', key: key('w'), windowMs: 60_000, limit: 5 } as const;
        await store.apply([hit, hit], T0);
        expect(await store.apply([{ kind: 'release', key: key('w') }], T0)).toEqual([{ count: 1, untilMs: T0 + 60_000 }]);
        await store.apply([{ kind: 'release', key: key('w') }], T0);
        expect(await store.apply([{ kind: 'release', key: key('w') }], T0)).toEqual([{ count: 0, untilMs: T0 + 60_000 }]);
        expect(await store.apply([{ kind: 'release', key: key('none') }], T0)).toEqual([{ count: 0, untilMs: 0 }]);
        expect(await store.apply([{ kind: 'peek', key: key('none') }], T0)).toEqual([{ count: 0, untilMs: 0 }]);
      });
    });
  });
}

describeStore('MemoryCounterStore', async () => ({ store: new MemoryCounterStore(), close: async () => undefined }));

/** Redis expires keys on its own clock: the spec's moments are moved to the real clock and back. */
class ShiftedClockStore extends CounterStore {
  private readonly shiftMs = Date.now() - T0;
  constructor(private readonly store: CounterStore) {
    super();
  }
  async apply(ops: Parameters<CounterStore['apply']>[0], nowMs: number) {
    const readings = await this.store.apply(ops, nowMs + this.shiftMs);
    return readings.map((reading) => ({ ...reading, untilMs: reading.untilMs === 0 ? 0 : reading.untilMs - this.shiftMs }));
  }
}

describeStore('RedisCounterStore', async () => {
  const redis: SpawnedRedis = await spawnRedis();
  const store = new RedisCounterStore(redis.url, 1000);
  await store.connected(5000);
  return {
    store: new ShiftedClockStore(store),
    close: async () => {
      store.close();
      await redis.stop();
    },
  };
});

describe('MemoryCounterStore under eviction pressure', () => {
  it('never evicts a key that blocks, however many other keys arrive', async () => {
    const store = new MemoryCounterStore(1000);
    for (let i = 0; i < 5; i++) await store.apply([{ kind: 'fail', key: 'sign-in|victim', policy }], T0);
    for (let i = 0; i < 3; i++) await store.apply([{ kind: 'hit', key: 'auth|victim', windowMs: 60_000, limit: 3 }], T0);
    for (let i = 0; i < 60_000; i++) await store.apply([{ kind: 'hit', key: `auth|198.51.${i >> 8}.${i & 255}`, windowMs: 60_000, limit: 3 }], T0 + 1);
    const [backOff, window] = await store.apply(
      [
        { kind: 'peek', key: 'sign-in|victim' },
        { kind: 'peek', key: 'auth|victim' },
      ],
      T0 + 2,
    );
    expect(backOff.untilMs).toBeGreaterThan(T0 + 2);
    expect(window).toEqual({ count: 3, untilMs: T0 + 60_000 });
  });

  it('lets blocking keys go once they expire', async () => {
    const store = new MemoryCounterStore(1000);
    for (let i = 0; i < 2000; i++) await store.apply([{ kind: 'hit', key: `k${i}`, windowMs: 1000, limit: 1 }], T0);
    expect(store.blockingKeys).toBe(2000);
    await store.apply([{ kind: 'hit', key: 'late', windowMs: 1000, limit: 1 }], T0 + 5000);
    for (let i = 0; i < 5000; i++) await store.apply([{ kind: 'hit', key: `later${i}`, windowMs: 1000, limit: 1 }], T0 + 5000);
    expect(store.blockingKeys).toBe(5001);
    expect(await store.apply([{ kind: 'peek', key: 'k1' }], T0 + 5000)).toEqual([{ count: 0, untilMs: 0 }]);
  });
});
