import type { Server } from 'node:http';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { listenForScrapes } from '../metrics/metrics-server';

/**
 * METRICS_PORT in the primary: a scrape asks every worker for its series over the cluster's channel
 * and answers with their sum (prom-client's AggregatorRegistry; a gauge may name another `aggregator`,
 * src/platform/metrics/metrics.ts). A worker that does not answer within 5 s fails the scrape (500).
 */
export function serveWorkersMetrics(host: string, port: number, logScrape: (line: string) => void): Promise<Server> {
  const aggregator = new AggregatorRegistry();
  return listenForScrapes({ metrics: () => aggregator.clusterMetrics(), contentType: aggregator.contentType }, host, port, logScrape);
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
