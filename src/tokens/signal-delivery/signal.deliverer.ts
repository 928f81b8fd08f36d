import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import type { ConfigType } from '../../platform/config/config-slice';
import { signalsConfig } from '../../platform/config/config.slices';
import { PeriodicTask } from '../../platform/scheduling/periodic-task';
import { inSpan } from '../../platform/tracing/spans';
import { deliveryUrlProblem } from '../../identity/signals/delivery-url';
import type { LogoutTokenClaims, SecurityEventClaims } from '../../identity/signals/security-event-types';
import { SignalOutboxRepository, type ClaimedSignal } from '../../identity/signals/signal-outbox.repository';
import { SignalMetrics, type DeliveryOutcome } from './signal-metrics';
import { SignalTokenSigner } from './signal-token.signer';
import { SignalTransport } from './signal.transport';

const BATCH_SIZE = 16;
const MAX_BATCHES_PER_ROUND = 20;
const EXPIRED_PER_ROUND = 500;
const MAX_RETRY_DELAY_MS = 5 * 60_000;

/**
 * Delivers the outbox (docs/signals.md#delivery), on every instance, off the request path (the one
 * periodic-task mechanism). Each round gives up deliveries past their expiry, then claims due ones
 * a batch at a time under a lease (`FOR UPDATE SKIP LOCKED`): an instance that dies mid-delivery
 * leaves them to the others once the lease ends. Each is signed now and POSTed (`SignalTransport`:
 * the guarded fetcher). Not accepted: tried again after the interval, doubling up to 5 minutes.
 */
@Injectable()
export class SignalDeliverer implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SignalDeliverer.name);
  private readonly task: PeriodicTask;
  private readonly leaseMs: number;
  private round?: Promise<void>;

  constructor(
    @Inject(SignalOutboxRepository) private readonly outbox: Pick<SignalOutboxRepository, 'deleteExpired' | 'claimDue' | 'delete' | 'retryLater'>,
    @Inject(SignalTokenSigner) private readonly signer: Pick<SignalTokenSigner, 'logoutToken' | 'securityEventToken'>,
    @Inject(SignalTransport) private readonly transport: Pick<SignalTransport, 'post' | 'allowLoopbackHttp'>,
    @Inject(SignalMetrics) private readonly metrics: Pick<SignalMetrics, 'count'>,
    private readonly audit: AuditSink,
    @Inject(signalsConfig.KEY) private readonly config: Pick<ConfigType<typeof signalsConfig>, 'deliveryIntervalMs' | 'deliveryTimeoutMs'>,
  ) {
    // Long enough for a batch, delivered at once, each within the deadline.
    this.leaseMs = 2 * config.deliveryTimeoutMs + 10_000;
    this.task = new PeriodicTask({
      name: 'Delivering logout tokens and security events',
      periodMs: config.deliveryIntervalMs,
      run: () => (this.round = this.deliverDue()),
      log: this.logger,
    });
  }

  onModuleInit(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.task.stop();
    await this.round?.catch(() => undefined);
  }

  /** One round; also what a test or an operator runs at once. */
  async deliverDue(): Promise<void> {
    for (const dropped of await this.outbox.deleteExpired(EXPIRED_PER_ROUND)) {
      this.metrics.count(dropped.kind, 'expired');
      this.audit.emit({
        name: 'signal.delivery_failed',
        kind: dropped.kind,
        clientId: dropped.clientId,
        attempts: dropped.attempts,
        error: dropped.lastError ?? 'not delivered in time',
        dropped: 'expired',
      });
    }
    for (let batch = 0; batch < MAX_BATCHES_PER_ROUND; batch++) {
      const claimed = await this.outbox.claimDue(BATCH_SIZE, this.leaseMs);
      await Promise.all(claimed.map((signal) => inSpan('tollgate.signal_delivery', () => this.deliver(signal), { 'tollgate.signal_kind': signal.kind })));
      if (claimed.length < BATCH_SIZE) return;
    }
  }

  private async deliver(signal: ClaimedSignal): Promise<void> {
    const problem = deliveryUrlProblem(signal.endpointUrl, this.transport.allowLoopbackHttp);
    if (problem !== undefined) return this.giveUp(signal, 'undeliverable', `the URL ${problem}`);
    let status: number;
    try {
      const { body, headers } = await this.request(signal);
      status = (await this.transport.post(signal.endpointUrl, body, headers)).status;
    } catch (error) {
      return this.retry(signal, error instanceof Error ? error.message : String(error));
    }
    if (status >= 200 && status < 300) return this.delivered(signal);
    // RFC 8935 §2.3: the receiver refused this SET; sending it again would be refused again.
    if (status === 400 && signal.kind === 'security_event') return this.giveUp(signal, 'rejected', 'the receiver answered 400');
    return this.retry(signal, `the receiver answered ${status}`);
  }

  /** Back-Channel Logout 1.0 §2.5: a form-encoded `logout_token`; RFC 8935 §2: the SET itself, `application/secevent+jwt`. */
  private async request(signal: ClaimedSignal): Promise<{ body: string; headers: Record<string, string> }> {
    if (signal.kind === 'backchannel_logout') {
      const token = await this.signer.logoutToken(signal.claims as LogoutTokenClaims, signal.clientId, signal.id);
      return { body: new URLSearchParams({ logout_token: token }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    }
    const token = await this.signer.securityEventToken(signal.claims as SecurityEventClaims, signal.clientId, signal.id);
    const headers: Record<string, string> = { 'content-type': 'application/secevent+jwt', accept: 'application/json' };
    if (signal.authorizationHeader !== undefined) headers.authorization = signal.authorizationHeader;
    return { body: token, headers };
  }

  private async delivered(signal: ClaimedSignal): Promise<void> {
    await this.outbox.delete(signal.id);
    this.metrics.count(signal.kind, 'delivered');
    this.audit.emit({ name: 'signal.delivered', kind: signal.kind, clientId: signal.clientId, jwtId: signal.id, attempts: signal.attempts });
  }

  private async retry(signal: ClaimedSignal, error: string): Promise<void> {
    const delayMs = Math.min(this.config.deliveryIntervalMs * 2 ** Math.min(signal.attempts - 1, 20), MAX_RETRY_DELAY_MS);
    await this.outbox.retryLater(signal.id, delayMs, error);
    this.metrics.count(signal.kind, 'retried');
    this.failed(signal, error, { retryInSeconds: Math.ceil(delayMs / 1000) });
  }

  private async giveUp(signal: ClaimedSignal, outcome: Extract<DeliveryOutcome, 'rejected' | 'undeliverable'>, error: string): Promise<void> {
    await this.outbox.delete(signal.id);
    this.metrics.count(signal.kind, outcome);
    this.failed(signal, error, { dropped: outcome });
  }

  private failed(signal: ClaimedSignal, error: string, then: { retryInSeconds: number } | { dropped: 'rejected' | 'undeliverable' }): void {
    this.audit.emit({
      name: 'signal.delivery_failed',
      kind: signal.kind,
      clientId: signal.clientId,
      jwtId: signal.id,
      attempts: signal.attempts,
      error,
      ...then,
    });
  }
}
