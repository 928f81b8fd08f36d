import { Logger } from '@nestjs/common';

/** Where a periodic task reports a failure and its end (Nest's `Logger` is one). */
export interface TaskLog {
  warn(message: string): void;
  log(message: string): void;
}

export interface PeriodicTaskOptions {
  /** What the task does, as the log says it: `Reloading resources`. */
  readonly name: string;
  readonly periodMs: number;
  readonly run: () => Promise<unknown>;
  /** Tasks that handle their own failures (the outage probes) may leave it out. */
  readonly log?: TaskLog;
}

/**
 * The one way Tollgate runs work periodically, off the request path. The timer never keeps the
 * process alive and `stop()` clears it. A tick that finds the previous run still going is skipped,
 * so a slow database never piles runs up. A failure is one warning line without a stack when it
 * starts or its reason changes, not one per tick, and its end is logged too.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running = false;
  private failure?: string;
  private readonly log: TaskLog;

  constructor(private readonly options: PeriodicTaskOptions) {
    this.log = options.log ?? new Logger(PeriodicTask.name);
  }

  get started(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.periodMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.options.run();
      if (this.failure !== undefined) this.log.log(`${this.options.name} works again`);
      this.failure = undefined;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (reason !== this.failure) this.log.warn(`${this.options.name} failed: ${reason}`);
      this.failure = reason;
    } finally {
      this.running = false;
    }
  }
}
