import { Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { acrOf } from '../../protocol/authentication-context';
import { PasskeyCeremonies } from '../../identity/passkeys/passkey-ceremonies';
import type { ChallengeBinding } from '../../identity/passkeys/webauthn-challenges';
import { BrowserCookies } from '../../identity/sessions/browser-cookies';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import { SignInSessionService } from '../../identity/sessions/sign-in-session.service';
import type { User } from '../../identity/users/user';
import { UserDirectory } from '../../identity/users/user-directory';

/** A session a sign-in started or renewed, with the cookies that carry it. */
export interface SignedIn {
  readonly handle: string;
  readonly session: SignInSession;
  readonly cookies: readonly string[];
}

/**
 * Sign-ins with a passkey (docs/passkeys.md): the credential the page's script posted, verified
 * against the challenge bound to the browser's cookie, for an enabled user. A new session (from the
 * login page), or the same session signed in again (a step-up, or the account page's recent sign-in).
 */
@Injectable()
export class PasskeySignIn {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly users: UserDirectory,
    private readonly sessions: SignInSessionService,
    private readonly cookies: BrowserCookies,
    private readonly audit: AuditSink,
  ) {}

  /** The enabled user whose passkey signed this credential; undefined (audited) otherwise. */
  async verify(credential: string | undefined, binding: ChallengeBinding, clientId: string, address: string): Promise<User | undefined> {
    const passkey = credential && this.ceremonies.relyingParty.available ? await this.ceremonies.authenticate(credential, binding) : undefined;
    const user = passkey && (await this.users.findBySubjectId(passkey.subject));
    if (user?.enabled) return user;
    this.audit.emit({ name: 'user.passkey_sign_in_failed', clientId, address });
    return undefined;
  }

  /** A new session for the user signed in with `methods`, replacing whatever session the browser had; the pre-session ends. */
  async startSession(user: User, methods: readonly string[], cookieHeader: string | undefined, clientId: string, address: string): Promise<SignedIn> {
    await this.sessions.end(this.cookies.session(cookieHeader));
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
