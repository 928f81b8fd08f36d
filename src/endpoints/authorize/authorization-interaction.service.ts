import { Injectable } from '@nestjs/common';
import { AuthorizeService } from './authorize.service';
import type { AuthorizationInput } from './authorization-parameters';
import type { InspectedParameters } from '../../protocol/inspected-parameters';
import { BrowserCookies } from '../../identity/sessions/browser-cookies';
import { SignInSessionService } from '../../identity/sessions/sign-in-session.service';
import { CSRF_FIELD, CsrfTokens } from '../interaction/csrf';
import type { ConsentForm, LoginForm, PasskeyForm, StepUpForm } from './authorization-forms';
import { PasskeySignIn } from '../interaction/passkey-sign-in';
import { PASSKEY_METHODS } from '../../protocol/authentication-context';
import type { PageResult } from '../interaction/page';
import { PasswordSignIn } from '../interaction/password-sign-in';
import { SignedInSessions } from '../interaction/signed-in-sessions';

/**
 * The browser's side of the authorization endpoint (docs/browser-sign-in.md): the request, and the
 * login, passkey, step-up and consent forms that continue it.
 */
@Injectable()
export class AuthorizationInteractionService {
  constructor(
    private readonly authorization: AuthorizeService,
    private readonly sessions: SignInSessionService,
    private readonly passwords: PasswordSignIn,
    private readonly cookies: BrowserCookies,
    private readonly csrf: CsrfTokens,
    private readonly passkeys: PasskeySignIn,
    private readonly signedInSessions: SignedInSessions,
  ) {}

  async authorize(parameters: AuthorizationInput, cookies: string | undefined): Promise<PageResult> {
    const session = await this.sessions.find(this.cookies.session(cookies));
    return { page: await this.authorization.authorize(parameters, session) };
  }

  /**
   * The login form: a new session on success, the form again with one generic message otherwise.
   * Its CSRF token is bound to the pre-session, which a sign-in ends: the forms after it are bound to
   * the new session.
   */
  async signIn(form: InspectedParameters<LoginForm>, cookies: string | undefined, address: string): Promise<PageResult> {
    if (!this.csrf.isValid({ kind: 'pre-session', handle: this.cookies.preSession(cookies) }, form.accepted(CSRF_FIELD))) {
      return { page: { kind: 'csrf_failed' } };
    }
    const outcome = await this.authorization.authorize(form, undefined, { resumed: true });
    if (outcome.kind !== 'login') return { page: outcome };
    const username = form.accepted('username') ?? '';
    const clientId = outcome.request.client.clientId;
    // A new sign-in replaces whatever session this browser had (prompt=login may switch users).
    const result = await this.passwords.signIn({ username, password: form.accepted('password') ?? '', cookies, address, clientId });
    if (result.outcome === 'busy') return { page: { kind: 'busy', retryAfterSeconds: result.retryAfterSeconds } };
    if (result.outcome === 'failed') return { page: { kind: 'login_failed', outcome, username: username.slice(0, 256) } };
    const { handle, session, cookies: set } = result.signedIn;
    return { page: await this.authorization.authorize(form, session, { signedInNow: true, resumed: true }), cookies: set, sessionHandle: handle };
  }

  /** The login page's passkey form (docs/passkeys.md): a new session, as the password form makes one. */
  async passkeySignIn(form: InspectedParameters<PasskeyForm>, cookies: string | undefined, address: string): Promise<PageResult> {
    const handle = this.cookies.preSession(cookies);
    if (handle === undefined || !this.csrf.isValid({ kind: 'pre-session', handle }, form.accepted(CSRF_FIELD))) return { page: { kind: 'csrf_failed' } };
    const outcome = await this.authorization.authorize(form, undefined, { resumed: true });
    if (outcome.kind !== 'login') return { page: outcome };
    const clientId = outcome.request.client.clientId;
    const user = await this.passkeys.verify(form.accepted('credential'), { kind: 'pre-session', handle }, clientId, address);
    if (!user) return { page: { kind: 'login_failed', outcome, username: '', passkey: true } };
    const signedIn = await this.signedInSessions.start(user, PASSKEY_METHODS, cookies, clientId, address);
    return {
      page: await this.authorization.authorize(form, signedIn.session, { signedInNow: true, resumed: true }),
      cookies: signedIn.cookies,
      sessionHandle: signedIn.handle,
    };
  }

  /**
   * The step-up page (RFC 9470, docs/passkeys.md#step-up): the session's user signs in again with one
   * of their passkeys, within the same session (same `sid`, a new cookie), and the request goes on.
   */
  async stepUp(form: InspectedParameters<StepUpForm>, cookies: string | undefined, address: string): Promise<PageResult> {
    const handle = this.cookies.session(cookies);
    if (handle === undefined || !this.csrf.isValid({ kind: 'session', handle }, form.accepted(CSRF_FIELD))) return { page: { kind: 'csrf_failed' } };
    if (form.accepted('decision') === 'cancel') return { page: await this.authorization.cancel(form) };
    const outcome = await this.authorization.authorize(form, await this.sessions.find(handle), { resumed: true });
    if (outcome.kind !== 'step_up') return { page: outcome };
    const clientId = outcome.request.client.clientId;
    const user = await this.passkeys.verify(form.accepted('credential'), { kind: 'session', handle }, clientId, address);
    const renewed =
      user?.subjectId === outcome.session.subject ? await this.signedInSessions.renew(handle, outcome.session, PASSKEY_METHODS, clientId, address) : undefined;
    if (!renewed) return { page: { kind: 'step_up_failed', outcome } };
    return {
      page: await this.authorization.authorize(form, renewed.session, { signedInNow: true, resumed: true }),
      cookies: renewed.cookies,
      sessionHandle: renewed.handle,
    };
  }

  /** The consent form: `decision` is `allow` or anything else, which denies. */
  async consent(form: InspectedParameters<ConsentForm>, cookies: string | undefined): Promise<PageResult> {
    const handle = this.cookies.session(cookies);
    if (!this.csrf.isValid({ kind: 'session', handle }, form.accepted(CSRF_FIELD))) return { page: { kind: 'csrf_failed' } };
    const session = await this.sessions.find(handle);
    return { page: await this.authorization.consent(form, session, form.accepted('decision') === 'allow') };
  }
}
