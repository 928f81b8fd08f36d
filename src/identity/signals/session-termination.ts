import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import type { EndedSignInSession } from '../sessions/sign-in-session';
import { SignInSessionService } from '../sessions/sign-in-session.service';
import { SecurityEvents } from './security-events';

/**
 * Sessions an operator ends: one by its `sid`, or every session of a user who is disabled. Each ended
 * session sends its logout tokens and a CAEP session-revoked (docs/signals.md#when-a-session-ends).
 */
@Injectable()
export class SessionTermination {
  constructor(
    @Inject(SignInSessionService) private readonly sessions: Pick<SignInSessionService, 'endById' | 'endAllOf'>,
    @Inject(SecurityEvents) private readonly events: Pick<SecurityEvents, 'sessionEnded' | 'sessionsRevoked'>,
    private readonly audit: AuditSink,
  ) {}

  /** Undefined when no active session has that id. */
  async endSession(sessionId: string): Promise<EndedSignInSession | undefined> {
    const ended = await this.sessions.endById(sessionId);
    if (ended) await this.ended(ended, 'operator');
    return ended;
  }

  /**
   * A disabled user: every session ends, and receivers hear session-revoked even when no browser
   * session remained, as the user's tokens from other grants (password, delegation) are no longer good either.
   */
  async endSessionsOf(subject: string): Promise<EndedSignInSession[]> {
    const ended = await this.sessions.endAllOf(subject);
    for (const session of ended) await this.ended(session, 'user_disabled');
    if (ended.length === 0) await this.events.sessionsRevoked(subject, 'admin');
    return ended;
  }

  private async ended(session: EndedSignInSession, reason: 'operator' | 'user_disabled'): Promise<void> {
    this.audit.emit({ name: 'session.ended', subject: session.subject, sessionId: session.sessionId, reason });
    await this.events.sessionEnded(session, 'admin');
  }
}
