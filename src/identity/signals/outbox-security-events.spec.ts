import { RecordingAuditSink } from '../../platform/audit/recording-audit.sink';
import type { LogoutTokenClaims, SecurityEventClaims } from './security-event-types';
import { LOGOUT_DELIVERY_SECONDS, OutboxSecurityEvents, SECURITY_EVENT_DELIVERY_SECONDS } from './outbox-security-events';

const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
const CREDENTIAL_CHANGE = 'https://schemas.openid.net/secevent/caep/event-type/credential-change';

describe('OutboxSecurityEvents', () => {
  let logouts: [readonly string[], LogoutTokenClaims, number][];
  let events: [string, string, SecurityEventClaims, number][];
  let audit: RecordingAuditSink;
  const publisher = () =>
    new OutboxSecurityEvents(
      {
        addLogouts: async (clientIds, claims, lifetime) => (logouts.push([clientIds, claims, lifetime]), clientIds.length),
        addUserEvent: async (subject, type, claims, lifetime) => (events.push([subject, type, claims, lifetime]), 1),
      },
      { issuer: 'https://id.example' },
      audit,
    );

  beforeEach(() => {
    logouts = [];
    events = [];
    audit = new RecordingAuditSink();
  });

  describe('sessionEnded', () => {
    it('queues a logout token for the clients given ID tokens, never a nonce, and a CAEP session-revoked for receivers', async () => {
      await publisher().sessionEnded({ sessionId: 'sid-1', subject: '7', idTokenClientIds: ['webapp', 'spa'] }, 'user');
      expect(logouts).toEqual([
        [['webapp', 'spa'], { sub: '7', sid: 'sid-1', events: { 'http://schemas.openid.net/event/backchannel-logout': {} } }, LOGOUT_DELIVERY_SECONDS],
      ]);
      expect(events).toEqual([
        [
          '7',
          SESSION_REVOKED,
          {
            sub_id: { format: 'iss_sub', iss: 'https://id.example', sub: '7' },
            txn: expect.stringMatching(/^[\w-]{16}$/),
            events: { [SESSION_REVOKED]: { initiating_entity: 'user', event_timestamp: expect.any(Number) } },
          },
          SECURITY_EVENT_DELIVERY_SECONDS,
        ],
      ]);
      expect(audit.events).toEqual([{ name: 'signal.queued', event: 'session_ended', subject: '7', logoutTokens: 2, securityEvents: 1 }]);
    });

    it('queues no logout token for a session that gave no ID token', async () => {
      await publisher().sessionEnded({ sessionId: 'sid-1', subject: '7', idTokenClientIds: [] }, 'admin');
      expect(logouts).toEqual([]);
      expect(events).toHaveLength(1);
    });
  });

  describe('credentialChanged', () => {
    it('queues a CAEP credential-change', async () => {
      await publisher().credentialChanged('7', { credentialType: 'fido2-platform', changeType: 'delete', initiatingEntity: 'user' });
      expect(events[0][2].events).toEqual({
        [CREDENTIAL_CHANGE]: { credential_type: 'fido2-platform', change_type: 'delete', initiating_entity: 'user', event_timestamp: expect.any(Number) },
      });
    });
  });
});
