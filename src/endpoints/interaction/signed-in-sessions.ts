import { Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { acrOf } from '../../protocol/authentication-context';
import { BrowserCookies } from '../../identity/sessions/browser-cookies';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import { SignInSessionService } from '../../identity/sessions/sign-in-session.service';
import { SessionTermination } from '../../identity/signals/session-termination';
import type { User } from '../../identity/users/user';

/** A session a sign-in started or renewed, with the cookies that carry it. */
export interface SignedIn {
  readonly handle: string;
  readonly session: SignInSession;
  readonly cookies: readonly string[];
}

/**
 * The session of a sign-in on a page, whatever the method (password or passkey): a new one, or the
 * same one signed in again (a step-up, or the account page's recent sign-in). Audited with its `acr`.
 * A new sign-in ends the browser's previous session as a logout does (`SessionTermination`).
 */
@Injectable()
export class SignedInSessions {
  constructor(
    private readonly sessions: SignInSessionService,
    private readonly cookies: BrowserCookies,
    private readonly audit: AuditSink,
    private readonly termination: SessionTermination,
  ) {}

  /** A new session for the user signed in with `methods`, replacing whatever session the browser had; the pre-session ends. */
  async start(user: User, methods: readonly string[], cookieHeader: string | undefined, clientId: string, address: string): Promise<SignedIn> {
    await this.termination.endBrowserSession(this.cookies.session(cookieHeader));
    const { handle, session } = await this.sessions.start(user.subjectId, methods);
    this.audit.emit({ name: 'user.signed_in', clientId, subject: user.subjectId, address, acr: acrOf(methods) });
    return { handle, session, cookies: [this.cookies.setSession(handle, this.sessions.lifetimeSeconds), this.cookies.clearPreSession()] };
  }

  /** The session's own user signed in again with `methods` (same `sid`, new handle); undefined when the session is gone. */
  async renew(handle: string, session: SignInSession, methods: readonly string[], clientId: string, address: string): Promise<SignedIn | undefined> {
    const renewed = await this.sessions.reauthenticate(handle, methods);
    if (!renewed) return undefined;
    this.audit.emit({ name: 'user.signed_in', clientId, subject: session.subject, address, acr: acrOf(methods) });
    const maxAge = Math.max(Math.floor((renewed.session.expiresAt.getTime() - Date.now()) / 1000), 0);
    return { ...renewed, cookies: [this.cookies.setSession(renewed.handle, maxAge)] };
  }
}
