import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../config/app.config';
import { createRootLogger } from '../logging/root-logger';
import { serveWorkersMetrics, supervisorRegistry } from './cluster-metrics';
import { WorkerSupervisor } from './worker-supervisor';

/**
 * The primary process of `WORKERS` > 1: METRICS_PORT with every worker's series, and the workers
 * until all have exited. Resolves with the exit code. It builds no application: its memory is
 * Node's, the workers' is the service's.
 */
export async function runClusterPrimary(config: AppConfig, stopTimeoutMs: number): Promise<number> {
  const logger = createRootLogger(config.logLevel).child({ context: 'Cluster' });
  const supervisor = new WorkerSupervisor({ workers: config.workers.count, stopTimeoutMs }, logger);
  const own = supervisorRegistry(() => supervisor.status());
  const metrics = config.metricsPort === undefined ? undefined : await serveWorkersMetrics(config.host, config.metricsPort, own, (line) => logger.debug(line));
  if (metrics) logger.info(`Metrics of every worker on http://${config.host}:${(metrics.address() as AddressInfo).port}/metrics`);
  const exitCode = await supervisor.run();
  metrics?.close();
  return exitCode;
}
