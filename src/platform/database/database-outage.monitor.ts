import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../scheduling/periodic-task';

const PROBE_INTERVAL_MS = 1000;
/** The outage ends once a request refused this long ago was the last one: the Retry-After clients get. */
const OUTAGE_QUIET_MS = 5000;

/**
 * Logs a database outage once when it starts and once when it ends, instead of a stack trace per
 * refused request: requests answered 503 because the database is unavailable report here, and
 * while it is down a probe (`SELECT 1`, every second) notices its return. A database that answers
 * `SELECT 1` while statements still fail (a table locked past statement_timeout) is not back yet:
 * the outage ends when the probe succeeds and no request was refused for OUTAGE_QUIET_MS.
 */
@Injectable()
export class DatabaseOutageMonitor implements OnModuleDestroy {
  private readonly logger = new Logger('Database');
  private outage?: { readonly since: number; refused: number; lastRefusedAt: number };
  private readonly probe = new PeriodicTask({ name: 'Probing the database', periodMs: PROBE_INTERVAL_MS, run: () => this.checkRecovery() });

  constructor(private readonly dataSource: DataSource) {}

  get unavailable(): boolean {
    return this.outage !== undefined;
  }

  /** A request was refused because the database could not be reached. */
  refused(cause: unknown): void {
    if (this.outage) {
      this.outage.refused++;
      this.outage.lastRefusedAt = Date.now();
      return;
    }
    this.outage = { since: Date.now(), refused: 1, lastRefusedAt: Date.now() };
    this.logger.error(`Database unavailable (${describe(cause)}): answering 503 temporarily_unavailable until it returns`);
    this.probe.start();
  }

  onModuleDestroy(): void {
    this.probe.stop();
  }

  private async checkRecovery(): Promise<void> {
    if (!this.outage || Date.now() - this.outage.lastRefusedAt < OUTAGE_QUIET_MS) return;
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      return;
    }
    const { since, refused } = this.outage;
    this.probe.stop();
    this.outage = undefined;
    this.logger.log(`Database available again after ${((Date.now() - since) / 1000).toFixed(1)} s; ${refused} requests were answered 503`);
  }
}

function describe(cause: unknown): string {
  const error = cause as { code?: unknown; message?: unknown };
  const message = typeof error?.message === 'string' ? error.message.slice(0, 200) : 'unknown error';
  return typeof error?.code === 'string' ? `${error.code}: ${message}` : message;
}
