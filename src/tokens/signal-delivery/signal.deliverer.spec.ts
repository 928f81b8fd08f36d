import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import { RecordingAuditSink } from '../../platform/audit/recording-audit.sink';
import { registerTracerProvider } from '../../platform/tracing/tracer-provider';
import type { ClaimedSignal, DroppedSignal, SignalOutboxRepository } from '../../identity/signals/signal-outbox.repository';
import { SignalDeliverer } from './signal.deliverer';
import type { DeliveryOutcome } from './signal-metrics';

const LOGOUT: ClaimedSignal = {
  id: 'a5e7c2c4-0000-4000-8000-000000000001',
  kind: 'backchannel_logout',
  clientId: 'webapp',
  endpointUrl: 'https://rp.example/backchannel-logout',
  eventType: 'backchannel-logout',
  claims: { sub: '7', sid: 'sid-1', events: { 'http://schemas.openid.net/event/backchannel-logout': {} } },
  attempts: 1,
  createdAt: new Date(0),
};

const SET: ClaimedSignal = {
  ...LOGOUT,
  id: 'a5e7c2c4-0000-4000-8000-000000000002',
  kind: 'security_event',
  clientId: 'api2',
  streamId: 'stream-1',
  endpointUrl: 'https://api2.example/events',
  authorizationHeader: 'Bearer receiver-secret',
  eventType: 'https://schemas.openid.net/secevent/caep/event-type/session-revoked',
  claims: { sub_id: { format: 'iss_sub', iss: 'https://id.example', sub: '7' }, events: {} },
};

/** A fake outbox that hands out `due` once and records what became of each delivery. */
class FakeOutbox implements Pick<SignalOutboxRepository, 'deleteExpired' | 'claimDue' | 'delete' | 'retryLater'> {
  readonly done: string[] = [];
  constructor(
    private due: ClaimedSignal[],
    private readonly expired: DroppedSignal[] = [],
  ) {}

  async deleteExpired(): Promise<DroppedSignal[]> {
    return this.expired.splice(0);
  }
  async claimDue(limit: number): Promise<ClaimedSignal[]> {
    const claimed = this.due.slice(0, limit);
    this.due = this.due.slice(limit);
    return claimed;
  }
  async delete(id: string): Promise<void> {
    this.done.push(`delete ${id}`);
  }
  async retryLater(id: string, delayMs: number, error: string): Promise<void> {
    this.done.push(`retry ${id} in ${delayMs} ms: ${error}`);
  }
}

describe('SignalDeliverer', () => {
  let sent: { url: string; body: string; headers: Readonly<Record<string, string>> }[];
  let outcomes: string[];
  let audit: RecordingAuditSink;

  function deliverer(outbox: FakeOutbox, answer: () => Promise<{ status: number }>, allowLoopbackHttp = false): SignalDeliverer {
    const signer = { logoutToken: async () => 'logout.jwt.sig', securityEventToken: async () => 'secevent.jwt.sig' };
    const transport = {
      allowLoopbackHttp,
      post: async (url: string, body: string, headers: Readonly<Record<string, string>>) => (sent.push({ url, body, headers }), answer()),
    };
    const metrics = { count: (kind: string, outcome: DeliveryOutcome) => void outcomes.push(`${kind} ${outcome}`) };
    return new SignalDeliverer(outbox, signer, transport, metrics, audit, { deliveryIntervalMs: 2000, deliveryTimeoutMs: 5000 });
  }

  beforeEach(() => {
    sent = [];
    outcomes = [];
    audit = new RecordingAuditSink();
  });

  it('gives up a delivery past its expiry, and says so', async () => {
    const outbox = new FakeOutbox([], [{ kind: 'backchannel_logout', clientId: 'webapp', attempts: 9, lastError: 'the receiver answered 503' }]);
    await deliverer(outbox, async () => ({ status: 200 })).deliverDue();
    expect(outcomes).toEqual(['backchannel_logout expired']);
    expect(audit.events).toEqual([
      { name: 'signal.delivery_failed', kind: 'backchannel_logout', clientId: 'webapp', attempts: 9, error: 'the receiver answered 503', dropped: 'expired' },
    ]);
  });

  it('drops, unsent, a delivery to a URL it may not send to (loopback http with an https issuer)', async () => {
    const outbox = new FakeOutbox([{ ...LOGOUT, endpointUrl: 'http://127.0.0.1:5174/backchannel-logout' }]);
    await deliverer(outbox, async () => ({ status: 200 })).deliverDue();
    expect(sent).toEqual([]);
    expect(outbox.done).toEqual([`delete ${LOGOUT.id}`]);
    expect(outcomes).toEqual(['backchannel_logout undeliverable']);
  });

  it('tries again after the interval, doubling with each attempt up to 5 minutes', async () => {
    const outbox = new FakeOutbox([LOGOUT, { ...SET, attempts: 3 }, { ...SET, id: 'late', attempts: 12 }]);
    await deliverer(outbox, async () => ({ status: 503 })).deliverDue();
    expect(outbox.done).toEqual([
      `retry ${LOGOUT.id} in 2000 ms: the receiver answered 503`,
      `retry ${SET.id} in 8000 ms: the receiver answered 503`,
      'retry late in 300000 ms: the receiver answered 503',
    ]);
    expect(audit.events[0]).toEqual({
      name: 'signal.delivery_failed',
      kind: 'backchannel_logout',
      clientId: 'webapp',
      jwtId: LOGOUT.id,
      attempts: 1,
      error: 'the receiver answered 503',
      retryInSeconds: 2,
    });
  });

  it('tries again after a failed connection, with its reason', async () => {
    const outbox = new FakeOutbox([LOGOUT]);
    await deliverer(outbox, () => Promise.reject(new Error('the host is not at a public address'))).deliverDue();
    expect(outbox.done).toEqual([`retry ${LOGOUT.id} in 2000 ms: the host is not at a public address`]);
  });

  it('drops a SET its receiver refused (RFC 8935 §2.3), but tries a refused logout token again', async () => {
    const outbox = new FakeOutbox([SET, LOGOUT]);
    await deliverer(outbox, async () => ({ status: 400 })).deliverDue();
    expect(outbox.done).toEqual([`delete ${SET.id}`, `retry ${LOGOUT.id} in 2000 ms: the receiver answered 400`]);
    expect(outcomes).toEqual(['security_event rejected', 'backchannel_logout retried']);
  });

  it('POSTs a form-encoded logout token, and a SET with the header its receiver asked for; a 2xx is delivered', async () => {
    const outbox = new FakeOutbox([LOGOUT, SET]);
    await deliverer(outbox, async () => ({ status: 202 })).deliverDue();
    expect(sent).toEqual([
      { url: LOGOUT.endpointUrl, body: 'logout_token=logout.jwt.sig', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      {
        url: SET.endpointUrl,
        body: 'secevent.jwt.sig',
        headers: { 'content-type': 'application/secevent+jwt', accept: 'application/json', authorization: 'Bearer receiver-secret' },
      },
    ]);
    expect(outbox.done).toEqual([`delete ${LOGOUT.id}`, `delete ${SET.id}`]);
    expect(audit.events).toContainEqual({ name: 'signal.delivered', kind: 'security_event', clientId: 'api2', jwtId: SET.id, attempts: 1 });
  });

  it('claims batch after batch until the outbox has no more due', async () => {
    const due = Array.from({ length: 40 }, (_, index) => ({ ...LOGOUT, id: `id-${index}` }));
    const outbox = new FakeOutbox(due);
    await deliverer(outbox, async () => ({ status: 200 })).deliverDue();
    expect(outbox.done).toHaveLength(40);
  });

  it('delivers each signal in a span of its own, which the POST carries on (docs/operations.md#tracing)', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = registerTracerProvider(exporter, { simple: true });
    const postedIn: (string | undefined)[] = [];
    let spans;
    try {
      const outbox = new FakeOutbox([LOGOUT, SET]);
      await deliverer(outbox, async () => (postedIn.push(trace.getActiveSpan()?.spanContext().spanId), { status: 202 })).deliverDue();
      // Read before shutdown, which empties the in-memory exporter.
      spans = exporter.getFinishedSpans();
    } finally {
      await tracing.shutdown();
    }
    expect(spans.map((span) => [span.name, span.attributes])).toEqual([
      ['tollgate.signal_delivery', { 'tollgate.signal_kind': 'backchannel_logout' }],
      ['tollgate.signal_delivery', { 'tollgate.signal_kind': 'security_event' }],
    ]);
    expect(postedIn).toEqual(spans.map((span) => span.spanContext().spanId));
  });
});
