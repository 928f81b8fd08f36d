import type { Server } from 'node:http';
import { AggregatorRegistry, Gauge, Registry } from 'prom-client';
import { listenForScrapes } from '../metrics/metrics-server';
import type { SupervisorStatus } from './worker-supervisor';

/**
 * METRICS_PORT in the primary: a scrape asks every worker for its series over the cluster's channel
 * and answers with their sum (prom-client's AggregatorRegistry; a gauge may name another `aggregator`,
 * src/platform/metrics/metrics.ts), followed by the primary's own series (`supervisorRegistry`). A
 * worker that does not answer within 5 s fails the scrape (500).
 */
export function serveWorkersMetrics(host: string, port: number, supervisor: Registry, logScrape: (line: string) => void): Promise<Server> {
  const aggregator = new AggregatorRegistry();
  const metrics = async () => `${await aggregator.clusterMetrics()}${await supervisor.metrics()}`;
  return listenForScrapes({ metrics, contentType: aggregator.contentType }, host, port, logScrape);
}

/** The primary's own series (docs/operations.md#several-cores-workers): the workers serving, their restarts and the back-off. */
export function supervisorRegistry(status: () => SupervisorStatus): Registry {
  const registry = new Registry();
  const gauge = (name: string, help: string, value: (status: SupervisorStatus) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(value(status()));
      },
    });
  gauge('tollgate_cluster_workers_listening', 'Workers serving requests now, of WORKERS', (now) => now.listening);
  gauge('tollgate_cluster_worker_restarts', 'Workers the primary replaced since it started', (now) => now.restarts);
  gauge(
    'tollgate_cluster_worker_restart_delay_seconds',
    'The wait a worker exiting now would get before its replacement starts: 1 when calm, doubling with each restart of the last minute up to 30',
    (now) => now.restartDelayMs / 1000,
  );
  return registry;
}

/**
 * A worker's side of those scrapes, from its start: with no series until `report` names the
 * application's registry, so that a scrape while a worker boots does not wait for it.
 */
export class WorkerMetricsReport {
  constructor() {
    AggregatorRegistry.setRegistries([]);
    // Constructing one in a worker is what makes prom-client answer the primary's requests.
    new AggregatorRegistry();
  }

  report(registry: Registry): void {
    AggregatorRegistry.setRegistries([registry]);
  }
}
