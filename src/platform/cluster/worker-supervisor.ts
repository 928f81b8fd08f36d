import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { MAX_RESTART_DELAY_MS, RestartBackoff } from './restart-backoff';

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

export interface WorkerSupervisorOptions {
  readonly workers: number;
  /** After a stop signal, how long the workers may take to exit before they are killed. */
  readonly stopTimeoutMs: number;
}

/** What the primary tells on METRICS_PORT (cluster-metrics.ts). */
export interface SupervisorStatus {
  readonly listening: number;
  /** Workers replaced since the start. */
  readonly restarts: number;
  /** The wait a worker exiting now would get before its replacement starts. */
  readonly restartDelayMs: number;
}

/**
 * The primary of `WORKERS` > 1 (docs/operations.md#several-cores-workers). It forks the workers, each
 * the whole service, sharing the listening port through node:cluster. While the service starts, a
 * worker that dies before it listened stops them all (exit 1), as a failed start stops a single
 * process. Once every worker has listened, any worker that dies is replaced, after a wait that
 * grows with the restarts of the last minute (RestartBackoff): what requests do may slow the
 * service down, never stop it. SIGTERM or SIGINT is passed to every worker, which drains as a
 * single process does; the primary exits once all have, with 0 if each exited with 0.
 */
export class WorkerSupervisor {
  private readonly alive = new Set<Worker>();
  private readonly listening = new Set<Worker>();
  private readonly backoff = new RestartBackoff();
  private readonly pendingForks = new Set<NodeJS.Timeout>();
  private restarts = 0;
  /** Every worker has listened once: the start is over. */
  private started = false;
  private stopping = false;
  private failed = false;
  private finish: (exitCode: number) => void = () => undefined;

  constructor(
    private readonly options: WorkerSupervisorOptions,
    private readonly logger: Logger,
  ) {}

  /** Resolves with the exit code once every worker has exited. */
  run(): Promise<number> {
    const exited = new Promise<number>((resolve) => (this.finish = resolve));
    cluster.on('listening', (worker) => this.onListening(worker));
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    for (const signal of STOP_SIGNALS) process.on(signal, () => this.stop(signal));
    this.logger.info(`Starting ${this.options.workers} workers`);
    for (let index = 0; index < this.options.workers; index++) this.fork();
    return exited;
  }

  private fork(): void {
    this.alive.add(cluster.fork());
  }

  status(): SupervisorStatus {
    return { listening: this.listening.size, restarts: this.restarts, restartDelayMs: this.backoff.delayAt(Date.now()) };
  }

  private onListening(worker: Worker): void {
    this.listening.add(worker);
    if (this.listening.size < this.options.workers) return;
    this.started = true;
    this.logger.info(`All ${this.options.workers} workers listening`);
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    this.alive.delete(worker);
    const listened = this.listening.delete(worker);
    const how = `Worker ${worker.process.pid} exited with ${signal ? `signal ${signal}` : `code ${code}`}`;
    if (this.stopping) {
      if (code !== 0) this.failed = true;
      if (this.alive.size === 0) this.finish(this.failed ? 1 : 0);
      return;
    }
    if (!listened && !this.started) return this.giveUp(`${how} before it listened: stopping`);
    this.restartLater(`${how}${listened ? '' : ' before it listened'}`);
  }

  private restartLater(how: string): void {
    const now = Date.now();
    const delay = this.backoff.nextDelayMs(now);
    const recent = this.backoff.recentRestarts(now);
    this.restarts++;
    const backingOff = recent > 1 ? ` (restart ${recent} within a minute: the wait doubles each time, up to ${MAX_RESTART_DELAY_MS / 1000} s)` : '';
    this.logger.warn({ restarts: this.restarts, restartDelayMs: delay }, `${how}; a new one starts in ${delay} ms${backingOff}`);
    const timer = setTimeout(() => {
      this.pendingForks.delete(timer);
      this.fork();
    }, delay);
    this.pendingForks.add(timer);
  }

  private giveUp(message: string): void {
    this.logger.error(message);
    this.failed = true;
    this.stop('SIGTERM', false);
  }

  private stop(signal: NodeJS.Signals, received = true): void {
    if (this.stopping) return;
    this.stopping = true;
    for (const timer of this.pendingForks) clearTimeout(timer);
    if (received) this.logger.info(`${signal} received, passing it to ${this.alive.size} workers`);
    for (const worker of this.alive) worker.process.kill(signal);
    setTimeout(() => this.killRemaining(), this.options.stopTimeoutMs).unref();
    if (this.alive.size === 0) this.finish(this.failed ? 1 : 0);
  }

  private killRemaining(): void {
    if (this.alive.size === 0) return;
    this.logger.error(`${this.alive.size} workers still running ${this.options.stopTimeoutMs} ms after the stop signal: killing them`);
    for (const worker of this.alive) worker.process.kill('SIGKILL');
    this.finish(1);
  }
}
