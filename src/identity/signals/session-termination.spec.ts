import { RecordingAuditSink } from '../../platform/audit/recording-audit.sink';
import type { EndedSignInSession } from '../sessions/sign-in-session';
import type { SignInSessionService } from '../sessions/sign-in-session.service';
import { SecurityEvents, type CredentialChange } from './security-events';
import { SessionTermination } from './session-termination';

class RecordingEvents extends SecurityEvents {
  readonly told: string[] = [];
  async sessionEnded(session: EndedSignInSession, initiatingEntity: string): Promise<void> {
    this.told.push(`ended ${session.sessionId} by ${initiatingEntity}`);
  }
  async sessionsRevoked(subject: string, initiatingEntity: string): Promise<void> {
    this.told.push(`all of ${subject} revoked by ${initiatingEntity}`);
  }
  async credentialChanged(subject: string, change: CredentialChange): Promise<void> {
    this.told.push(`${subject} ${change.credentialType}`);
  }
}

const session = (sessionId: string): EndedSignInSession => ({ sessionId, subject: '7', idTokenClientIds: ['webapp'] });

describe('SessionTermination', () => {
  let events: RecordingEvents;
  let audit: RecordingAuditSink;
  // Records what happened inside a unit of work: the ending and its telling must be one write.
  let inUnit: string[][];
  const unitOfWork = {
    run: async <T>(work: () => Promise<T>): Promise<T> => {
      const before = events.told.length;
      const result = await work();
      inUnit.push(events.told.slice(before));
      return result;
    },
  };
  const termination = (sessions: EndedSignInSession[]) => {
    const store: Pick<SignInSessionService, 'end' | 'endById' | 'endAllOf'> = {
      end: async (handle) => sessions.find((candidate) => candidate.sessionId === handle),
      endById: async (sessionId) => sessions.find((candidate) => candidate.sessionId === sessionId),
      endAllOf: async () => sessions,
    };
    return new SessionTermination(store, events, audit, unitOfWork);
  };

  beforeEach(() => {
    events = new RecordingEvents();
    audit = new RecordingAuditSink();
    inUnit = [];
  });

  describe('endBrowserSession', () => {
    it('ends the session as its user, telling of it in the same unit of work', async () => {
      await expect(termination([session('sid-1')]).endBrowserSession('sid-1')).resolves.toEqual(session('sid-1'));
      expect(inUnit).toEqual([['ended sid-1 by user']]);
    });

    it('tells nobody, and opens no unit of work, when the browser had no session', async () => {
      await expect(termination([]).endBrowserSession(undefined)).resolves.toBeUndefined();
      expect(inUnit).toEqual([]);
    });

    it('tells nobody when the session is gone already', async () => {
      await expect(termination([]).endBrowserSession('sid-9')).resolves.toBeUndefined();
      expect(inUnit).toEqual([[]]);
    });

    it('fails, for its unit of work to roll the ending back, when the telling cannot be written', async () => {
      events.sessionEnded = async () => {
        throw new Error('outbox unavailable');
      };
      await expect(termination([session('sid-1')]).endBrowserSession('sid-1')).rejects.toThrow('outbox unavailable');
    });
  });

  describe('endSession', () => {
    it('tells nobody when there is no such session', async () => {
      await expect(termination([]).endSession('sid-9')).resolves.toBeUndefined();
      expect(events.told).toEqual([]);
      expect(audit.events).toEqual([]);
    });

    it('ends the session as an administrator, and records it', async () => {
      await termination([session('sid-1')]).endSession('sid-1');
      expect(inUnit).toEqual([['ended sid-1 by admin']]);
      expect(audit.events).toEqual([{ name: 'session.ended', subject: '7', sessionId: 'sid-1', reason: 'operator' }]);
    });
  });

  describe('endSessionsOf', () => {
    it('tells of every session ended', async () => {
      await termination([session('sid-1'), session('sid-2')]).endSessionsOf('7');
      expect(inUnit).toEqual([['ended sid-1 by admin', 'ended sid-2 by admin']]);
      expect(audit.events.map((event) => event.name)).toEqual(['session.ended', 'session.ended']);
    });

    it('revokes the sessions of a user with no browser session left, for the receivers of their other tokens', async () => {
      await termination([]).endSessionsOf('7');
      expect(events.told).toEqual(['all of 7 revoked by admin']);
    });
  });
});
