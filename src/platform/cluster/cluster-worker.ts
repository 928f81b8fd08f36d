import cluster from 'node:cluster';
import type { Registry } from 'prom-client';
import type { AppConfig, WorkersConfig } from '../config/app.config';
import { WorkerMetricsReport } from './cluster-metrics';

export type ProcessRole = 'single' | 'primary' | 'worker';

/** With `WORKERS=1` the process serves alone; with more it is the primary that forks workers, or one of them. */
export function processRole({ count }: WorkersConfig): ProcessRole {
  if (count === 1) return 'single';
  return cluster.isPrimary ? 'primary' : 'worker';
}

/**
 * What a worker does besides serving as a single process would (docs/operations.md#several-cores-workers):
 * it leaves METRICS_PORT to the primary and answers its scrapes instead.
 */
export class ClusterWorker {
  private readonly metrics = new WorkerMetricsReport();

  appConfig(config: AppConfig): AppConfig {
    return { ...config, metricsPort: undefined };
  }

  /** Once the application is built and its stop-signal handlers are installed (main.ts). */
  serving(registry: Registry): void {
    this.metrics.report(registry);
    // A terminal's Ctrl-C, or systemd, signals every process of the group: the worker's own signal
    // and the one the primary passes on. The first starts the shutdown; a repeat must not kill the
    // worker in the middle of it, as Node's default action would.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => undefined);
  }
}
