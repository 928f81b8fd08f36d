import type { SignalBacklog } from '../../src/identity/signals/signal-outbox.repository';
import type { SsfStream } from '../../src/identity/signals/ssf-stream';
import { formatTable } from '../inventory/inventory-format';

export const SIGNALS_USAGE = `Usage: tollgate signals [--json]
Shows each Shared Signals stream (receiver, status, endpoint, events, deliveries waiting) and the back-channel
logout tokens waiting in the outbox, from the database the service uses; changes nothing (docs/signals.md#operations).
A stream's authorization header is never shown, only whether it has one.`;

/** What `tollgate signals` shows of a stream: never its authorization header, only whether there is one. */
export interface StreamReport {
  readonly clientId: string;
  readonly streamId: string;
  readonly status: string;
  readonly statusReason: string | null;
  readonly endpointUrl: string;
  readonly authorizationHeader: boolean;
  readonly eventsDelivered: readonly string[];
  readonly pending: number;
  readonly oldestPending: string | null;
  readonly lastVerificationAt: string | null;
}

export interface SignalsReport {
  readonly backchannelLogout: { readonly pending: number; readonly oldestPending: string | null };
  readonly streams: readonly StreamReport[];
}

export function signalsReport(streams: readonly SsfStream[], backlog: SignalBacklog): SignalsReport {
  return {
    backchannelLogout: { pending: backlog.backchannelLogout.pending, oldestPending: backlog.backchannelLogout.oldest?.toISOString() ?? null },
    streams: streams.map((stream) => {
      const waiting = backlog.streams.get(stream.streamId);
      return {
        clientId: stream.clientId,
        streamId: stream.streamId,
        status: stream.status,
        statusReason: stream.statusReason ?? null,
        endpointUrl: stream.endpointUrl,
        authorizationHeader: stream.authorizationHeader !== undefined,
        eventsDelivered: stream.eventsDelivered,
        pending: waiting?.pending ?? 0,
        oldestPending: waiting?.oldest?.toISOString() ?? null,
        lastVerificationAt: stream.lastVerificationAt?.toISOString() ?? null,
      };
    }),
  };
}

export function formatSignalsReport(report: SignalsReport): string {
  const logout = report.backchannelLogout;
  const streams = formatTable(
    ['RECEIVER', 'STREAM_ID', 'STATUS', 'PENDING', 'OLDEST_PENDING', 'EVENTS', 'ENDPOINT'],
    report.streams.map((stream) => [
      stream.clientId,
      stream.streamId,
      stream.statusReason === null ? stream.status : `${stream.status} (${stream.statusReason})`,
      String(stream.pending),
      stream.oldestPending ?? '-',
      stream.eventsDelivered.map((event) => event.slice(event.lastIndexOf('/') + 1)).join(',') || '-',
      stream.endpointUrl,
    ]),
  );
  return `Back-channel logout: ${logout.pending} pending${logout.oldestPending ? `, oldest ${logout.oldestPending}` : ''}\n\n${streams}`;
}
