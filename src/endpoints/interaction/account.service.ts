import { Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { PASSKEY_METHODS, PASSWORD_METHODS } from '../../protocol/authentication-context';
import type { InspectedParameters } from '../../protocol/inspected-parameters';
import { PasskeyCeremonies, passkeyName } from '../../identity/passkeys/passkey-ceremonies';
import { credentialTypeOf, type Passkey } from '../../identity/passkeys/passkey';
import { SecurityEvents } from '../../identity/signals/security-events';
import type { CredentialChangeType } from '../../identity/signals/security-event-types';
import { PasskeyRepository } from '../../identity/passkeys/passkey.repository';
import { BrowserCookies } from '../../identity/sessions/browser-cookies';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import { SignInSessionService } from '../../identity/sessions/sign-in-session.service';
import type { User } from '../../identity/users/user';
import { UserDirectory } from '../../identity/users/user-directory';
import type { AccountForm, AccountPasskeyForm, AccountPasswordForm, PasskeyChangeForm } from './account-forms';
import { RECENT_SIGN_IN_SECONDS, type AccountNotice, type AccountPage } from './account-page';
import { CSRF_FIELD, CsrfTokens, type CsrfBinding } from './csrf';
import type { PageResult } from './page';
import { PasskeySignIn } from './passkey-sign-in';
import { PasswordSignIn } from './password-sign-in';
import { SignedInSessions, type SignedIn } from './signed-in-sessions';

// The audit log's client of the account page's sign-ins.
const ACCOUNT_PAGE = 'account';

/** The browser's session and its user, when both are active. */
interface Signed {
  readonly handle: string;
  readonly session: SignInSession;
  readonly user: User;
}

/**
 * The account page (docs/passkeys.md#the-account-page--get-account): a signed-in user lists, names and removes
 * their passkeys and adds new ones. Adding and removing need a sign-in within the last five minutes,
 * else a fresh one on the page (password or passkey), which renews the session. Every form is
 * CSRF-protected like the sign-in pages'.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly sessions: SignInSessionService,
    private readonly users: UserDirectory,
    private readonly cookies: BrowserCookies,
    private readonly csrf: CsrfTokens,
    private readonly passwords: PasswordSignIn,
    private readonly passkeySignIn: PasskeySignIn,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly passkeys: PasskeyRepository,
    private readonly audit: AuditSink,
    private readonly events: SecurityEvents,
    private readonly signedInSessions: SignedInSessions,
  ) {}

  async show(cookies: string | undefined): Promise<PageResult> {
    const signed = await this.signedIn(cookies);
    return { page: signed ? await this.page(signed) : signInFirst() };
  }

  /** A password sign-in: a new session without one, the session renewed for its own user with one. */
  async signInWithPassword(form: InspectedParameters<AccountPasswordForm>, cookies: string | undefined, address: string): Promise<PageResult> {
    const signed = await this.signedIn(cookies);
    if (!this.csrfValid(form, cookies, signed)) return { page: { kind: 'csrf_failed' } };
    const username = form.accepted('username') ?? '';
    if (signed && username !== signed.user.username) return { page: await this.page(signed, 'sign_in_failed') };
    const attempt = { username, password: form.accepted('password') ?? '', cookies, address, clientId: ACCOUNT_PAGE };
    // With a session, the same session signed in again; else a new one, as on the login page.
    const result = signed ? await this.passwords.check(attempt) : await this.passwords.signIn(attempt);
    if (result.outcome === 'busy') return { page: { kind: 'busy', retryAfterSeconds: result.retryAfterSeconds } };
    if (result.outcome === 'failed') {
      return { page: signed ? await this.page(signed, 'sign_in_failed') : { ...signInFirst(), failed: true, username: username.slice(0, 256) } };
    }
    if (result.outcome === 'signed_in') return this.signedInPage({ ...result.signedIn, user: result.user }, result.signedIn.cookies);
    return signed ? this.renewed(signed, PASSWORD_METHODS, address) : { page: signInFirst() };
  }

  /** A passkey sign-in: as with a password; a session is renewed only by a passkey of its own user. */
  async signInWithPasskey(form: InspectedParameters<AccountPasskeyForm>, cookies: string | undefined, address: string): Promise<PageResult> {
    const signed = await this.signedIn(cookies);
    if (!this.csrfValid(form, cookies, signed)) return { page: { kind: 'csrf_failed' } };
    const binding = this.binding(cookies, signed);
    const user =
      binding.handle && (await this.passkeySignIn.verify(form.accepted('credential'), { kind: binding.kind, handle: binding.handle }, ACCOUNT_PAGE, address));
    if (!user) return { page: signed ? await this.page(signed, 'sign_in_failed') : { ...signInFirst(), passkeyFailed: true } };
    if (signed)
      return user.subjectId === signed.user.subjectId ? this.renewed(signed, PASSKEY_METHODS, address) : { page: await this.page(signed, 'sign_in_failed') };
    const started = await this.signedInSessions.start(user, PASSKEY_METHODS, cookies, ACCOUNT_PAGE, address);
    return this.signedInPage({ ...started, user }, started.cookies);
  }

  /** A new passkey from `navigator.credentials.create()`, after a recent sign-in. */
  async addPasskey(form: InspectedParameters<AccountPasskeyForm>, cookies: string | undefined): Promise<PageResult> {
    return this.change(form, cookies, true, async ({ handle, user }) => {
      const owner = { subject: user.subjectId, username: user.username, displayName: displayNameOf(user) };
      const added = await this.ceremonies.register(owner, form.accepted('credential') ?? '', form.accepted('name') ?? '', { kind: 'session', handle });
      if (!added) return 'add_failed';
      this.audit.emit({ name: 'passkey.added', subject: user.subjectId });
      await this.passkeyChanged(added, 'create');
      return 'added';
    });
  }

  async renamePasskey(form: InspectedParameters<PasskeyChangeForm>, cookies: string | undefined): Promise<PageResult> {
    return this.change(form, cookies, false, async ({ user }) => {
      const renamed = await this.passkeys.rename(user.subjectId, form.accepted('credential_id') ?? '', passkeyName(form.accepted('name') ?? ''));
      return renamed ? 'renamed' : 'not_found';
    });
  }

  async removePasskey(form: InspectedParameters<PasskeyChangeForm>, cookies: string | undefined): Promise<PageResult> {
    return this.change(form, cookies, true, async ({ user }) => {
      const removed = await this.passkeys.remove(user.subjectId, form.accepted('credential_id') ?? '');
      if (!removed) return 'not_found';
      this.audit.emit({ name: 'passkey.removed', subject: user.subjectId });
      await this.passkeyChanged(removed, 'delete');
      return 'removed';
    });
  }

  /** CAEP credential-change (docs/signals.md): APIs holding the user's tokens learn of the new or removed passkey. */
  private passkeyChanged(passkey: Passkey, changeType: CredentialChangeType): Promise<void> {
    return this.events.credentialChanged(passkey.subject, { credentialType: credentialTypeOf(passkey), changeType, initiatingEntity: 'user' });
  }

  /** A change of a signed-in user's passkeys; `needsRecentSignIn` for adding and removing. */
  private async change(
    form: InspectedParameters<AccountForm>,
    cookies: string | undefined,
    needsRecentSignIn: boolean,
    apply: (signed: Signed) => Promise<AccountNotice>,
  ): Promise<PageResult> {
    const signed = await this.signedIn(cookies);
    if (!signed) return { page: signInFirst() };
    if (!this.csrfValid(form, cookies, signed)) return { page: { kind: 'csrf_failed' } };
    if (needsRecentSignIn && !isRecent(signed.session)) return { page: await this.page(signed, 'not_recent') };
    return { page: await this.page(signed, await apply(signed)) };
  }

  private async renewed(signed: Signed, methods: readonly string[], address: string): Promise<PageResult> {
    const renewed = await this.signedInSessions.renew(signed.handle, signed.session, methods, ACCOUNT_PAGE, address);
    return renewed ? this.signedInPage({ ...renewed, user: signed.user }, renewed.cookies) : { page: signInFirst() };
  }

  private async signedInPage(signed: SignedIn & { user: User }, cookies: readonly string[]): Promise<PageResult> {
    return { page: await this.page(signed, 'signed_in'), cookies, sessionHandle: signed.handle };
  }

  private async page({ session, user }: Pick<Signed, 'session' | 'user'>, notice?: AccountNotice): Promise<AccountPage> {
    const passkeys = await this.passkeys.listOf(user.subjectId);
    return { kind: 'account', session, user, passkeys, recent: isRecent(session), ...(notice ? { notice } : {}) };
  }

  /** Forms are bound to the session when there is one, else to the pre-session (the login form). */
  private binding(cookies: string | undefined, signed: Signed | undefined): CsrfBinding {
    return signed ? { kind: 'session', handle: signed.handle } : { kind: 'pre-session', handle: this.cookies.preSession(cookies) };
  }

  private csrfValid(form: InspectedParameters<AccountForm>, cookies: string | undefined, signed: Signed | undefined): boolean {
    return this.csrf.isValid(this.binding(cookies, signed), form.accepted(CSRF_FIELD));
  }

  /** The browser's session, if any and its user is still enabled. */
  private async signedIn(cookies: string | undefined): Promise<Signed | undefined> {
    const handle = this.cookies.session(cookies);
    const session = await this.sessions.find(handle);
    const user = session && (await this.users.findBySubjectId(session.subject));
    return handle && session && user?.enabled ? { handle, session, user } : undefined;
  }
}

function isRecent(session: SignInSession): boolean {
  return Math.floor(Date.now() / 1000) - session.authTime <= RECENT_SIGN_IN_SECONDS;
}

function signInFirst(): Extract<AccountPage, { kind: 'account_login' }> {
  return { kind: 'account_login', failed: false, passkeyFailed: false, username: '' };
}

function displayNameOf(user: User): string {
  return typeof user.claims.name === 'string' ? user.claims.name : user.username;
}
