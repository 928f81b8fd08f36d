import { CounterStore, type CounterOp, type CounterReading } from './counter-store';
import { FailOpenCounterStore, type FallbackObserver, type SharedCounterStore } from './fail-open-counter-store';
import { MemoryCounterStore } from './memory-counter-store';

class FlakySharedStore extends CounterStore implements SharedCounterStore {
  available = true;
  calls = 0;
  async apply(ops: readonly CounterOp[]): Promise<CounterReading[]> {
    this.calls++;
    if (!this.available) throw new Error('Command timed out');
    return ops.map(() => ({ count: 1000, untilMs: 0 }));
  }
  async ping(): Promise<void> {
    if (!this.available) throw new Error('Connection is closed.');
  }
  close(): void {}
}

class RecordingObserver implements FallbackObserver {
  readonly transitions: string[] = [];
  sharedStoreLost(reason: string): void {
    this.transitions.push(`lost: ${reason}`);
  }
  sharedStoreRestored(): void {
    this.transitions.push('restored');
  }
}

const hit: CounterOp = { kind: 'hit', key: 'k', windowMs: 60_000, limit: 10 };

describe('FailOpenCounterStore', () => {
  let shared: FlakySharedStore;
  let observer: RecordingObserver;
  let store: FailOpenCounterStore;
  beforeEach(() => {
    jest.useFakeTimers();
    shared = new FlakySharedStore();
    observer = new RecordingObserver();
    store = new FailOpenCounterStore(shared, new MemoryCounterStore(), observer, 1000);
  });
  afterEach(() => {
    store.close();
    jest.useRealTimers();
  });

  describe('apply', () => {
    it('counts in memory when the shared store fails, and keeps counting there without asking it again', async () => {
      shared.available = false;
      expect(await store.apply([hit], 0)).toEqual([{ count: 1, untilMs: 60_000 }]);
      expect(await store.apply([hit], 0)).toEqual([{ count: 2, untilMs: 60_000 }]);
      expect(shared.calls).toBe(1);
      expect(store.usingFallback).toBe(true);
    });

    it('reports the loss once, however many requests fail', async () => {
      shared.available = false;
      await Promise.all([store.apply([hit], 0), store.apply([hit], 0), store.apply([hit], 0)]);
      expect(observer.transitions).toEqual(['lost: Command timed out']);
    });

    it('goes back to the shared store once it answers a probe, and reports that once', async () => {
      shared.available = false;
      await store.apply([hit], 0);
      await jest.advanceTimersByTimeAsync(3000);
      expect(store.usingFallback).toBe(true);
      shared.available = true;
      await jest.advanceTimersByTimeAsync(1000);
      expect(store.usingFallback).toBe(false);
      expect(await store.apply([hit], 0)).toEqual([{ count: 1000, untilMs: 0 }]);
      await jest.advanceTimersByTimeAsync(5000);
      expect(observer.transitions).toEqual(['lost: Command timed out', 'restored']);
    });
  });
});
