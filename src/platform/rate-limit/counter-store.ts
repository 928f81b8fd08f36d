/**
 * Counts in a window that opens at the first hit; `limit` tells the store when a key starts blocking
 * (`count >= limit`).
 */
export interface WindowHit {
  readonly kind: 'hit';
  readonly key: string;
  readonly windowMs: number;
  readonly limit: number;
  /** Counted only if no gate of the request blocks (see `gate` on BackOffFailure). */
  readonly gate?: boolean;
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
  /**
   * An attempt counted before it is made, so that a burst sent at once is counted as it arrives and
   * not after its checks (docs/throttling.md): the request's gates are applied only if none of their
   * keys blocks at that moment (a back-off running, a window at its limit), atomically; otherwise
   * nothing is counted and each gate's reading is `refused`.
   */
  readonly gate?: boolean;
}

/** Gives back one hit of a window (a gated attempt that turned out not to be a failure). */
export interface Release {
  readonly kind: 'release';
  readonly key: string;
}

/** Forgets a key (a success resets its back-off). */
export interface Clear {
  readonly kind: 'clear';
  readonly key: string;
}

export type CounterOp = WindowHit | Peek | BackOffFailure | Clear | Release;

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
  /** On a gate: the request's gates were refused, nothing was counted (the reading is the key as it is). */
  readonly refused?: true;
}

export const NO_READING: CounterReading = { count: 0, untilMs: 0 };

/** Where throttling counters live (this instance's memory, or Redis); also the DI token. */
export abstract class CounterStore {
  /** Applies the operations in order, in one round trip, and returns one reading per operation. */
  abstract apply(ops: readonly CounterOp[], nowMs: number): Promise<CounterReading[]>;
}

export function isGate(op: CounterOp): op is WindowHit | BackOffFailure {
  return (op.kind === 'hit' || op.kind === 'fail') && op.gate === true;
}

/** Whether a gate's key blocks now: a back-off running, or a window at its limit. */
export function gateBlocks(op: WindowHit | BackOffFailure, reading: CounterReading, nowMs: number): boolean {
  return op.kind === 'hit' ? reading.count >= op.limit && reading.untilMs > nowMs : reading.untilMs > nowMs;
}

/** The back-off after `failures` failures: none below the threshold, then base × 2ⁿ up to the maximum. */
export function backOffMs(failures: number, policy: BackOffPolicy): number {
  if (failures < policy.threshold) return 0;
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(failures - policy.threshold, 30));
}
