import { PeriodicTask } from '../scheduling/periodic-task';
import { CounterStore, type CounterOp, type CounterReading } from './counter-store';

/** The shared store, which can fail; it says when it answers again. */
export interface SharedCounterStore extends CounterStore {
  ping(): Promise<void>;
  close(): void;
}

/** Told once per transition between the shared store and the in-memory fallback. */
export interface FallbackObserver {
  sharedStoreLost(reason: string): void;
  sharedStoreRestored(): void;
}

/**
 * Uses the shared store while it answers; on an error or a timeout, counts in this instance's
 * memory instead (throttling fails open to per-instance counters, never to no throttling), and
 * probes the shared store in the background until it answers again (docs/throttling.md).
 */
export class FailOpenCounterStore extends CounterStore {
  private readonly probe: PeriodicTask;

  constructor(
    private readonly shared: SharedCounterStore,
    private readonly fallback: CounterStore,
    private readonly observer: FallbackObserver,
    probeIntervalMs = 1000,
  ) {
    super();
    this.probe = new PeriodicTask({ name: 'Probing the shared counter store', periodMs: probeIntervalMs, run: () => this.tryShared() });
  }

  get usingFallback(): boolean {
    return this.probe.started;
  }

  async apply(ops: readonly CounterOp[], nowMs: number): Promise<CounterReading[]> {
    if (this.usingFallback) return this.fallback.apply(ops, nowMs);
    try {
      return await this.shared.apply(ops, nowMs);
    } catch (error) {
      this.switchToFallback(error);
      return this.fallback.apply(ops, nowMs);
    }
  }

  close(): void {
    this.probe.stop();
    this.shared.close();
  }

  private switchToFallback(error: unknown): void {
    if (this.usingFallback) return;
    this.probe.start();
    this.observer.sharedStoreLost(error instanceof Error ? error.message : String(error));
  }

  private async tryShared(): Promise<void> {
    try {
      await this.shared.ping();
    } catch {
      return; // still unavailable: keep counting in memory
    }
    if (!this.usingFallback) return;
    this.probe.stop();
    this.observer.sharedStoreRestored();
  }
}
