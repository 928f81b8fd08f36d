import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { TollgateMetrics } from '../../platform/metrics/metrics';
import { SignalOutboxRepository } from '../../identity/signals/signal-outbox.repository';

/** What happened to an attempt: accepted, to be retried, or given up (docs/signals.md#operations). */
export type DeliveryOutcome = 'delivered' | 'retried' | 'rejected' | 'expired' | 'undeliverable';

/**
 * The series of signal delivery, on the service's registry: attempts by kind (`backchannel_logout`,
 * `security_event`) and outcome, and the backlog in the outbox, read from the database at each scrape
 * (shared by every instance: the largest answer, not the sum, under WORKERS).
 */
@Injectable()
export class SignalMetrics {
  private readonly deliveries: Counter<'kind' | 'outcome'>;

  constructor(metrics: TollgateMetrics, @Inject(SignalOutboxRepository) outbox: Pick<SignalOutboxRepository, 'backlog'>) {
    this.deliveries = new Counter({
      name: 'tollgate_signal_deliveries_total',
      help: 'Deliveries of logout tokens and security event tokens by kind and outcome (delivered, retried, rejected, expired, undeliverable)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [metrics.registry],
    });
    new Gauge({
      name: 'tollgate_signal_backlog',
      help: 'Deliveries waiting in the outbox by kind, those held for paused streams included',
      labelNames: ['kind'] as const,
      aggregator: 'max',
      registers: [metrics.registry],
      async collect() {
        // A database outage leaves the last values: the scrape itself must still answer.
        const backlog = await outbox.backlog().catch(() => undefined);
        if (!backlog) return;
        this.set({ kind: 'backchannel_logout' }, backlog.backchannelLogout.pending);
        this.set(
          { kind: 'security_event' },
          [...backlog.streams.values()].reduce((sum, stream) => sum + stream.pending, 0),
        );
      },
    });
  }

  count(kind: string, outcome: DeliveryOutcome): void {
    this.deliveries.inc({ kind, outcome });
  }
}
