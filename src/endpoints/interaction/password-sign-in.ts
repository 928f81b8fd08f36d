import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { PASSWORD_METHODS } from '../../protocol/authentication-context';
import { DeviceCookies } from '../../identity/sign-in/device-cookie';
import { PasswordCheck } from '../../identity/sign-in/password-check';
import { PasswordChecksBusy } from '../../identity/sign-in/password-check.queue';
import type { User } from '../../identity/users/user';
import { SignedInSessions, type SignedIn } from './signed-in-sessions';

const MAX_CREDENTIAL_LENGTH = 1024;
const MAX_AUDITED_USERNAME_LENGTH = 200;

/** A username and password posted on a page, with the browser's cookies and address; `clientId` names the page in the audit log. */
export interface PagePasswordAttempt {
  readonly username: string;
  readonly password: string;
  readonly cookies: string | undefined;
  readonly address: string;
  readonly clientId: string;
}

/** Every refusal looks the same (`failed`); `busy` when hashing is saturated (docs/throttling.md#password-hashing), a page of its own. */
export type PasswordChecked = { readonly outcome: 'verified'; readonly user: User } | PasswordRefused;
export type PasswordSignedIn = { readonly outcome: 'signed_in'; readonly user: User; readonly signedIn: SignedIn } | PasswordRefused;
type PasswordRefused = { readonly outcome: 'failed' } | { readonly outcome: 'busy'; readonly retryAfterSeconds: number };

/**
 * The password sign-in of every page (login, device verification, account): the username and
 * password checked within the sign-in back-off of docs/throttling.md, the one the password grant
 * uses, counted for the browser's device alone when it carries a device cookie for that username
 * (docs/throttling.md#device-cookies). Every failure — unknown user, wrong password, disabled user,
 * back-off — looks the same to the caller and is audited.
 */
@Injectable()
export class PasswordSignIn {
  constructor(
    @Inject(PasswordCheck) private readonly passwords: Pick<PasswordCheck, 'check'>,
    private readonly deviceCookies: DeviceCookies,
    @Inject(SignedInSessions) private readonly sessions: Pick<SignedInSessions, 'start'>,
    private readonly audit: AuditSink,
  ) {}

  /** A new session (`pwd`), replacing whatever session the browser had, with the device cookie for the username. */
  async signIn(attempt: PagePasswordAttempt): Promise<PasswordSignedIn> {
    const checked = await this.check(attempt);
    if (checked.outcome !== 'verified') return checked;
    const started = await this.sessions.start(checked.user, PASSWORD_METHODS, attempt.cookies, attempt.clientId, attempt.address);
    return {
      outcome: 'signed_in',
      user: checked.user,
      signedIn: { ...started, cookies: [...started.cookies, ...this.deviceCookies.setCookie(attempt.username)] },
    };
  }

  /** The check alone, for a page that renews a session it has (the account page). */
  async check({ username, password, cookies, address, clientId }: PagePasswordAttempt): Promise<PasswordChecked> {
    const refuse = (reason: 'invalid_credentials' | 'back_off') => {
      this.audit.emit({ name: 'user.sign_in_failed', username: username.slice(0, MAX_AUDITED_USERNAME_LENGTH), clientId, address, reason });
      return { outcome: 'failed' } as const;
    };
    if (!username || username.length > MAX_CREDENTIAL_LENGTH || password.length > MAX_CREDENTIAL_LENGTH) return refuse('invalid_credentials');
    const deviceId = this.deviceCookies.deviceOf(cookies, username);
    try {
      const { user, refusal } = await this.passwords.check({ username, password, address, deviceId });
      return refusal ? refuse(refusal) : { outcome: 'verified', user };
    } catch (error) {
      if (error instanceof PasswordChecksBusy) return { outcome: 'busy', retryAfterSeconds: error.retryAfterSeconds };
      throw error;
    }
  }
}
