import { LRUCache } from 'lru-cache';
import { backOffMs, CounterStore, gateBlocks, isGate, NO_READING, type CounterOp, type CounterReading } from './counter-store';

interface Entry {
  count: number;
  untilMs: number;
  expiresAtMs: number;
}

/**
 * Counters in this instance's memory. Ordinary counters sit in a bounded LRU; a key that blocks
 * (over its limit, or in back-off) moves to a separate map that eviction never touches, so flooding
 * the LRU with new keys cannot lift a lockout (docs/throttling.md). Blocking keys leave that map
 * when they expire.
 */
export class MemoryCounterStore extends CounterStore {
  private readonly ordinary: LRUCache<string, Entry>;
  private readonly blocking = new Map<string, Entry>();
  private nextSweepAt = 1024;

  constructor(maxOrdinaryKeys = 100_000) {
    super();
    this.ordinary = new LRUCache({ max: maxOrdinaryKeys });
  }

  get blockingKeys(): number {
    return this.blocking.size;
  }

  async apply(ops: readonly CounterOp[], nowMs: number): Promise<CounterReading[]> {
    const refused = ops.some((op) => isGate(op) && gateBlocks(op, this.read(op.key, nowMs), nowMs));
    return ops.map((op) => (refused && isGate(op) ? { ...this.read(op.key, nowMs), refused: true } : this.applyOne(op, nowMs)));
  }

  private read(key: string, nowMs: number): CounterReading {
    const entry = this.find(key, nowMs);
    return entry ? { count: entry.count, untilMs: entry.untilMs } : NO_READING;
  }

  private applyOne(op: CounterOp, nowMs: number): CounterReading {
    const entry = this.find(op.key, nowMs);
    switch (op.kind) {
      case 'peek':
        return this.read(op.key, nowMs);
      case 'release':
        if (entry && entry.count > 0) entry.count--;
        return this.read(op.key, nowMs);
      case 'clear':
        this.ordinary.delete(op.key);
        this.blocking.delete(op.key);
        return NO_READING;
      case 'hit': {
        const next = entry ?? { count: 0, untilMs: nowMs + op.windowMs, expiresAtMs: nowMs + op.windowMs };
        next.count++;
        this.store(op.key, next, next.count >= op.limit, nowMs);
        return { count: next.count, untilMs: next.untilMs };
      }
      case 'fail': {
        const count = (entry?.count ?? 0) + 1;
        const blockMs = backOffMs(count, op.policy);
        const untilMs = blockMs > 0 ? nowMs + blockMs : 0;
        // Remember the failures beyond the back-off, so that the next one doubles it.
        this.store(op.key, { count, untilMs, expiresAtMs: Math.max(untilMs, nowMs) + op.policy.maxMs }, untilMs > 0, nowMs);
        return { count, untilMs };
      }
    }
  }

  private find(key: string, nowMs: number): Entry | undefined {
    const entry = this.blocking.get(key) ?? this.ordinary.get(key);
    if (entry && entry.expiresAtMs <= nowMs) {
      this.blocking.delete(key);
      this.ordinary.delete(key);
      return undefined;
    }
    return entry;
  }

  private store(key: string, entry: Entry, blocks: boolean, nowMs: number): void {
    if (!blocks) {
      this.blocking.delete(key);
      this.ordinary.set(key, entry);
      return;
    }
    this.ordinary.delete(key);
    this.blocking.set(key, entry);
    if (this.blocking.size >= this.nextSweepAt) this.sweep(nowMs);
  }

  private sweep(nowMs: number): void {
    for (const [key, entry] of this.blocking) if (entry.expiresAtMs <= nowMs) this.blocking.delete(key);
    this.nextSweepAt = Math.max(1024, this.blocking.size * 2);
  }
}
