import type { SsfStream } from '../../src/identity/signals/ssf-stream';
import { formatSignalsReport, signalsReport } from './signals-report';

const STREAM: SsfStream = {
  streamId: 'stream-1',
  clientId: 'api2',
  endpointUrl: 'https://api2.example/events',
  authorizationHeader: 'Bearer never-shown',
  eventsRequested: [],
  eventsDelivered: ['https://schemas.openid.net/secevent/caep/event-type/session-revoked'],
  status: 'paused',
  statusReason: 'maintenance',
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

describe('signalsReport', () => {
  const backlog = {
    backchannelLogout: { pending: 2, oldest: new Date('2027-01-15T08:00:00Z') },
    streams: new Map([['stream-1', { pending: 3, oldest: new Date('2027-01-15T09:00:00Z') }]]),
  };

  it("shows each stream's state and backlog, and whether it has an authorization header, never the header", () => {
    const report = signalsReport(
      [STREAM, { ...STREAM, streamId: 'stream-2', clientId: 'api3', authorizationHeader: undefined, status: 'enabled', statusReason: undefined }],
      backlog,
    );
    expect(JSON.stringify(report)).not.toContain('never-shown');
    expect(report.streams.map(({ clientId, status, pending, authorizationHeader }) => ({ clientId, status, pending, authorizationHeader }))).toEqual([
      { clientId: 'api2', status: 'paused', pending: 3, authorizationHeader: true },
      { clientId: 'api3', status: 'enabled', pending: 0, authorizationHeader: false },
    ]);
    expect(formatSignalsReport(report)).toBe(
      'Back-channel logout: 2 pending, oldest 2027-01-15T08:00:00.000Z\n\n' +
        'RECEIVER  STREAM_ID  STATUS                PENDING  OLDEST_PENDING            EVENTS           ENDPOINT\n' +
        'api2      stream-1   paused (maintenance)  3        2027-01-15T09:00:00.000Z  session-revoked  https://api2.example/events\n' +
        'api3      stream-2   enabled               0        -                         session-revoked  https://api2.example/events\n',
    );
  });
});
