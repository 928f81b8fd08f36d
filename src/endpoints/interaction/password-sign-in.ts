import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '../../platform/audit/audit-event';
import { PasswordCheck } from '../../identity/sign-in/password-check';
import type { User } from '../../identity/users/user';

const MAX_CREDENTIAL_LENGTH = 1024;
const MAX_AUDITED_USERNAME_LENGTH = 200;

/**
 * Checks a username and password from the login page within the sign-in back-off of
 * docs/throttling.md, the one the password grant uses, counted for the browser's device alone when
 * it carries a device cookie for that username. Every failure — unknown user, wrong password,
 * disabled user, back-off — looks the same to the caller. Throws 503 when hashing is saturated.
 */
@Injectable()
export class PasswordSignIn {
  constructor(
    @Inject(PasswordCheck) private readonly passwords: Pick<PasswordCheck, 'check'>,
    private readonly audit: AuditSink,
  ) {}

  async verify(username: string, password: string, address: string, clientId: string, deviceId?: string): Promise<User | undefined> {
    const refuse = (reason: 'invalid_credentials' | 'back_off') => {
      this.audit.emit({ name: 'user.sign_in_failed', username: username.slice(0, MAX_AUDITED_USERNAME_LENGTH), clientId, address, reason });
      return undefined;
    };
    if (!username || username.length > MAX_CREDENTIAL_LENGTH || password.length > MAX_CREDENTIAL_LENGTH) return refuse('invalid_credentials');
    const { user, refusal } = await this.passwords.check({ username, password, address, deviceId });
    return refusal ? refuse(refusal) : user;
  }
}
