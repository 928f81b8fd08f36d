import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConfigType } from '../config/config-slice';
import { metricsListenerConfig } from '../config/config.slices';
import { TollgateMetrics } from './metrics';
import { listenForScrapes } from './metrics-server';

/**
 * Prometheus metrics on a port of their own (METRICS_PORT), never on the public one: scrapers reach
 * it inside the cluster, clients of the token service never do (docs/operations.md#metrics).
 * Without METRICS_PORT nothing listens.
 */
@Injectable()
export class MetricsListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | undefined;

  constructor(
    private readonly metrics: TollgateMetrics,
    @Inject(metricsListenerConfig.KEY) private readonly config: ConfigType<typeof metricsListenerConfig>,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.port === undefined) return;
    // A scrape every few seconds: debug, as the probes (docs/operations.md#logs).
    this.server = await listenForScrapes(this.metrics.registry, this.config.host, this.config.port, (line) => this.logger.debug(line));
    this.logger.log(`Metrics on http://${this.config.host}:${this.port()}/metrics`);
  }

  /** The port it listens on (METRICS_PORT=0 picks a free one); undefined when not listening. */
  port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}
