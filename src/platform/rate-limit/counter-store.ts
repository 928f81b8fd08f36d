/** Counts in a window that opens at the first hit; `limit` tells the store when a key starts blocking. */
export interface WindowHit {
  readonly kind: 'hit';
  readonly key: string;
  readonly windowMs: number;
  readonly limit: number;
}

/** Reads a window count, or a back-off, without changing it. */
export interface Peek {
  readonly kind: 'peek';
  readonly key: string;
}

/** One more failure for a back-off key: after `threshold` failures each one blocks, doubling up to `maxMs`. */
export interface BackOffFailure {
  readonly kind: 'fail';
  readonly key: string;
  readonly policy: BackOffPolicy;
}

/** Forgets a key (a success resets its back-off). */
export interface Clear {
  readonly kind: 'clear';
  readonly key: string;
}

export type CounterOp = WindowHit | Peek | BackOffFailure | Clear;

export interface BackOffPolicy {
  readonly threshold: number;
  readonly baseMs: number;
  readonly maxMs: number;
}

/**
 * What a store knows of a key after an operation: its count (hits in the window, or failures), and
 * until when it lasts (the window's end, or the end of the back-off; 0 when not blocked / unknown).
 */
export interface CounterReading {
  readonly count: number;
  readonly untilMs: number;
}

export const NO_READING: CounterReading = { count: 0, untilMs: 0 };

/** Where throttling counters live (this instance's memory, or Redis); also the DI token. */
export abstract class CounterStore {
  /** Applies the operations in order, in one round trip, and returns one reading per operation. */
  abstract apply(ops: readonly CounterOp[], nowMs: number): Promise<CounterReading[]>;
}

/** The back-off after `failures` failures: none below the threshold, then base × 2ⁿ up to the maximum. */
export function backOffMs(failures: number, policy: BackOffPolicy): number {
  if (failures < policy.threshold) return 0;
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(failures - policy.threshold, 30));
}
