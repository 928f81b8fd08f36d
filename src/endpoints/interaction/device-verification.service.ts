import { Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { ConsentRepository } from '../../tokens/authorization/consent.repository';
import type { Client } from '../../identity/clients/client';
import { ClientStore } from '../../identity/clients/client.store';
import type { DeviceAuthorization } from '../../tokens/device-authorization/device-authorization';
import { DeviceAuthorizationService } from '../../tokens/device-authorization/device-authorization.service';
import { formatUserCode } from '../../tokens/device-authorization/user-code';
import type { InspectedParameters } from '../../protocol/inspected-parameters';
import { UserCodeThrottle } from '../../platform/rate-limit/user-code.throttle';
import { BrowserCookies } from '../../identity/sessions/browser-cookies';
import type { SignInSession } from '../../identity/sessions/sign-in-session';
import { SignInSessionService } from '../../identity/sessions/sign-in-session.service';
import { UserDirectory } from '../../identity/users/user-directory';
import { CSRF_FIELD, CsrfTokens } from './csrf';
import type { DeviceConsentForm, DeviceEntryForm, DeviceLoginForm, DevicePasskeyForm } from './device-forms';
import { PasskeySignIn } from './passkey-sign-in';
import { PasskeyRepository } from '../../identity/passkeys/passkey.repository';
import { readAcrRequirement } from '../../protocol/acr-request';
import { acrOf, meetsRequirement, PASSKEY_METHODS } from '../../protocol/authentication-context';
import type { DevicePage } from './device-page';
import type { PageResult } from './page';
import { PasswordSignIn } from './password-sign-in';
import { SignedInSessions } from './signed-in-sessions';

// The audit log's client of a sign-in on the verification page, before any code names one.
const VERIFICATION_PAGE = 'device_verification';

/**
 * The verification page (RFC 8628 §3.3, docs/device-authorization.md): sign in, enter the user
 * code, consent when the client requires it, and the answer recorded for the device's next poll.
 * Every form is CSRF-protected; wrong codes are counted per signed-in user (docs/throttling.md#user-codes).
 */
@Injectable()
export class DeviceVerificationService {
  constructor(
    private readonly devices: DeviceAuthorizationService,
    private readonly sessions: SignInSessionService,
    private readonly users: UserDirectory,
    private readonly passwords: PasswordSignIn,
    private readonly cookies: BrowserCookies,
    private readonly csrf: CsrfTokens,
    private readonly clients: ClientStore,
    private readonly consents: ConsentRepository,
    private readonly throttle: UserCodeThrottle,
    private readonly audit: AuditSink,
    private readonly passkeySignIn: PasskeySignIn,
    private readonly passkeys: PasskeyRepository,
    private readonly signedInSessions: SignedInSessions,
  ) {}

  /** `GET /connect/device`: the login page, or the code form, prefilled from `verification_uri_complete`. */
  async show(form: InspectedParameters<DeviceEntryForm>, cookies: string | undefined): Promise<PageResult> {
    const userCode = form.accepted('user_code') ?? '';
    const session = await this.activeSession(cookies);
    return { page: session ? { kind: 'device_entry', userCode, subject: session.subject } : signInFirst(userCode) };
  }

  /** The login form: a new session and the code form on success, the form again with one generic message otherwise. */
  async signIn(form: InspectedParameters<DeviceLoginForm>, cookies: string | undefined, address: string): Promise<PageResult> {
    if (!this.csrf.isValid({ kind: 'pre-session', handle: this.cookies.preSession(cookies) }, form.accepted(CSRF_FIELD))) {
      return { page: { kind: 'csrf_failed' } };
    }
    const userCode = form.accepted('user_code') ?? '';
    const username = form.accepted('username') ?? '';
    const result = await this.passwords.signIn({ username, password: form.accepted('password') ?? '', cookies, address, clientId: VERIFICATION_PAGE });
    if (result.outcome === 'busy') return { page: { kind: 'busy', retryAfterSeconds: result.retryAfterSeconds } };
    if (result.outcome === 'failed') return { page: { kind: 'device_login', userCode, failed: true, username: username.slice(0, 256) } };
    const { handle, session, cookies: set } = result.signedIn;
    return { page: { kind: 'device_entry', userCode, subject: session.subject }, cookies: set, sessionHandle: handle };
  }

  /** The login page's passkey form (docs/passkeys.md): a new session and the code form, as the password form makes them. */
  async signInWithPasskey(form: InspectedParameters<DevicePasskeyForm>, cookies: string | undefined, address: string): Promise<PageResult> {
    const handle = this.cookies.preSession(cookies);
    if (handle === undefined || !this.csrf.isValid({ kind: 'pre-session', handle }, form.accepted(CSRF_FIELD))) return { page: { kind: 'csrf_failed' } };
    const userCode = form.accepted('user_code') ?? '';
    const user = await this.passkeySignIn.verify(form.accepted('credential'), { kind: 'pre-session', handle }, VERIFICATION_PAGE, address);
    if (!user) return { page: { kind: 'device_login', userCode, failed: true, username: '', passkey: true } };
    const signedIn = await this.signedInSessions.start(user, PASSKEY_METHODS, cookies, VERIFICATION_PAGE, address);
    return { page: { kind: 'device_entry', userCode, subject: signedIn.session.subject }, cookies: signedIn.cookies, sessionHandle: signedIn.handle };
  }

  /**
   * The code form: always the page that names the client and asks for a decision, whatever the
   * client or a remembered consent: a code a phisher made the user type must never be approved
   * unseen (RFC 8628 §5.4).
   */
  async enter(form: InspectedParameters<DeviceEntryForm>, cookies: string | undefined): Promise<PageResult> {
    return this.withCode(form, cookies, async (...found) => confirmation(...found));
  }

  /**
   * The step-up form (docs/passkeys.md#step-up): the session's user signs in again with a passkey,
   * within the same session, and the code goes on as if just entered.
   */
  async stepUp(form: InspectedParameters<DevicePasskeyForm>, cookies: string | undefined, address: string): Promise<PageResult> {
    const typed = form.accepted('user_code') ?? '';
    const handle = this.cookies.session(cookies);
    const session = await this.activeSession(cookies);
    if (!session || handle === undefined) return { page: signInFirst(typed) };
    if (!this.csrf.isValid({ kind: 'session', handle }, form.accepted(CSRF_FIELD))) return { page: { kind: 'csrf_failed' } };
    const user = await this.passkeySignIn.verify(form.accepted('credential'), { kind: 'session', handle }, VERIFICATION_PAGE, address);
    const renewed =
      user?.subjectId === session.subject ? await this.signedInSessions.renew(handle, session, PASSKEY_METHODS, VERIFICATION_PAGE, address) : undefined;
    if (!renewed) {
      const again = await this.withSessionCode(typed, session, async (...found) => confirmation(...found));
      return again.page.kind === 'device_step_up' ? { page: { ...again.page, failed: true } } : again;
    }
    const next = await this.withSessionCode(typed, renewed.session, async (...found) => confirmation(...found));
    return { ...next, cookies: renewed.cookies, sessionHandle: renewed.handle };
  }

  /** The consent form: an allow is remembered per user, client and scopes for the browser flow (docs/browser-sign-in.md); anything else denies. */
  async consent(form: InspectedParameters<DeviceConsentForm>, cookies: string | undefined): Promise<PageResult> {
    const allowed = form.accepted('decision') === 'allow';
    return this.withCode(form, cookies, async (session, authorization, client) => {
      if (allowed) await this.consents.allow(session.subject, client.clientId, authorization.scopes);
      return this.answer(session, authorization, client, allowed);
    });
  }

  /**
   * A form of a signed-in user that names a user code: the CSRF token bound to the session, the
   * user within the budget of wrong codes, the code a pending request's, whose client is enabled.
   */
  private async withCode(
    form: InspectedParameters<DeviceEntryForm>,
    cookies: string | undefined,
    next: (session: SignInSession, authorization: DeviceAuthorization, client: Client) => Promise<DevicePage>,
  ): Promise<PageResult> {
    const typed = form.accepted('user_code') ?? '';
    const handle = this.cookies.session(cookies);
    const session = await this.activeSession(cookies);
    if (!session) return { page: signInFirst(typed) };
    if (!this.csrf.isValid({ kind: 'session', handle }, form.accepted(CSRF_FIELD))) return { page: { kind: 'csrf_failed' } };
    return this.withSessionCode(typed, session, next);
  }

  private async withSessionCode(
    typed: string,
    session: SignInSession,
    next: (session: SignInSession, authorization: DeviceAuthorization, client: Client) => Promise<DevicePage>,
  ): Promise<PageResult> {
    const { subject } = session;
    // Counted before the code is looked up: of codes sent at once, no more than the budget are.
    const waitSeconds = await this.throttle.admit(subject);
    if (waitSeconds > 0) return { page: { kind: 'device_entry', userCode: typed, subject, problem: { kind: 'throttled', retryAfterSeconds: waitSeconds } } };
    const authorization = await this.devices.findPending(typed);
    const client = authorization && (await this.clients.find(authorization.clientId));
    if (!authorization || !client?.enabled) return { page: { kind: 'device_entry', userCode: typed, subject, problem: { kind: 'invalid' } } };
    await this.throttle.succeeded(subject);
    const requirement = readAcrRequirement({ acrValues: authorization.acrValues?.join(' '), clientRequiresPhr: client.requirePhr });
    if (!meetsRequirement(acrOf(session.authenticationMethods), requirement)) return { page: await this.stepUpFirst(session, authorization, client) };
    return { page: await next(session, authorization, client) };
  }

  /** RFC 9470 for a device: a passkey first; a user without one denies the request (the device is told `access_denied`). */
  private async stepUpFirst(session: SignInSession, authorization: DeviceAuthorization, client: Client): Promise<DevicePage> {
    if ((await this.passkeys.countOf(session.subject)) > 0) {
      return { kind: 'device_step_up', userCode: formatUserCode(authorization.userCode), subject: session.subject, clientName: nameOf(client) };
    }
    const answered = await this.answer(session, authorization, client, false);
    return answered.kind === 'device_answered' ? { ...answered, unmet: true } : answered;
  }

  private async answer(session: SignInSession, authorization: DeviceAuthorization, client: Client, approved: boolean): Promise<DevicePage> {
    const approval = approved
      ? { subject: session.subject, sessionId: session.sessionId, authTime: session.authTime, authenticationMethods: session.authenticationMethods }
      : undefined;
    // Answered meanwhile (another tab) or expired: the code is no longer good.
    if (!(await this.devices.answer(authorization, approval))) {
      return { kind: 'device_entry', userCode: formatUserCode(authorization.userCode), subject: session.subject, problem: { kind: 'invalid' } };
    }
    this.audit.emit({ name: 'device_authorization.answered', clientId: client.clientId, subject: session.subject, approved });
    return { kind: 'device_answered', approved, clientName: nameOf(client) };
  }

  /** The browser's session, if any and its user is still enabled. */
  private async activeSession(cookies: string | undefined): Promise<SignInSession | undefined> {
    const session = await this.sessions.find(this.cookies.session(cookies));
    const user = session && (await this.users.findBySubjectId(session.subject));
    return user?.enabled ? session : undefined;
  }
}

function signInFirst(userCode: string): DevicePage {
  return { kind: 'device_login', userCode, failed: false, username: '' };
}

/** The page that names the client and asks for a decision, whatever a remembered consent says (RFC 8628 §5.4). */
function confirmation(session: SignInSession, authorization: DeviceAuthorization, client: Client): DevicePage {
  return {
    kind: 'device_consent',
    userCode: formatUserCode(authorization.userCode),
    subject: session.subject,
    clientName: nameOf(client),
    scopes: authorization.scopes,
  };
}

function nameOf(client: Client): string {
  return client.clientName ?? client.clientId;
}
