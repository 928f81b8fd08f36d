import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { EndedSignInSession } from '../sessions/sign-in-session';
import { SignInSessionService } from '../sessions/sign-in-session.service';
import { SecurityEvents } from './security-events';

/**
 * Every ending of a session: a browser's logout (or its replacement by a new sign-in), an operator's
 * by `sid`, every session of a user who is disabled. Each ended session sends its logout tokens and a
 * CAEP session-revoked (docs/signals.md#when-a-session-ends), written in the same transaction as the
 * ending: a session never ends untold, and a failed write leaves it as it was.
 */
@Injectable()
export class SessionTermination {
  constructor(
    @Inject(SignInSessionService) private readonly sessions: Pick<SignInSessionService, 'end' | 'endById' | 'endAllOf'>,
    @Inject(SecurityEvents) private readonly events: Pick<SecurityEvents, 'sessionEnded' | 'sessionsRevoked'>,
    private readonly audit: AuditSink,
    @Inject(UnitOfWork) private readonly unitOfWork: Pick<UnitOfWork, 'run'>,
  ) {}

  /** The session behind a browser's session cookie (`handle`), ended by its user; undefined when there was none. */
  async endBrowserSession(handle: string | undefined): Promise<EndedSignInSession | undefined> {
    // Most sign-ins come without a session: no transaction for them.
    if (handle === undefined) return undefined;
    return this.unitOfWork.run(async () => {
      const ended = await this.sessions.end(handle);
      if (ended) await this.events.sessionEnded(ended, 'user');
      return ended;
    });
  }

  /** Undefined when no active session has that id. */
  endSession(sessionId: string): Promise<EndedSignInSession | undefined> {
    return this.unitOfWork.run(async () => {
      const ended = await this.sessions.endById(sessionId);
      if (ended) await this.ended(ended, 'operator');
      return ended;
    });
  }

  /**
   * A disabled user: every session ends, and receivers hear session-revoked even when no browser
   * session remained, as the user's tokens from other grants (password, delegation) are no longer good either.
   */
  endSessionsOf(subject: string): Promise<EndedSignInSession[]> {
    return this.unitOfWork.run(async () => {
      const ended = await this.sessions.endAllOf(subject);
      for (const session of ended) await this.ended(session, 'user_disabled');
      if (ended.length === 0) await this.events.sessionsRevoked(subject, 'admin');
      return ended;
    });
  }

  private async ended(session: EndedSignInSession, reason: 'operator' | 'user_disabled'): Promise<void> {
    this.audit.emit({ name: 'session.ended', subject: session.subject, sessionId: session.sessionId, reason });
    await this.events.sessionEnded(session, 'admin');
  }
}
