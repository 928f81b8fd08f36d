import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '../audit/audit-event';
import { SignInThrottle } from '../rate-limit/sign-in.throttle';
import type { User } from '../users/user';
import { UserDirectory } from '../users/user-directory';

const MAX_CREDENTIAL_LENGTH = 1024;
const MAX_AUDITED_USERNAME_LENGTH = 200;

/**
 * Checks a username and password from the login page within the sign-in back-off of
 * docs/throttling.md, the one the password grant uses. Every failure — unknown user, wrong
 * password, disabled user, back-off — looks the same to the caller.
 */
@Injectable()
export class PasswordSignIn {
  constructor(
    @Inject(UserDirectory) private readonly users: Pick<UserDirectory, 'authenticate'>,
    @Inject(SignInThrottle) private readonly signIns: Pick<SignInThrottle, 'isInBackOff' | 'recordFailure' | 'recordSuccess'>,
    private readonly audit: AuditSink,
  ) {}

  async verify(username: string, password: string, address: string, clientId: string): Promise<User | undefined> {
    const refuse = (reason: 'invalid_credentials' | 'back_off') => {
      this.audit.emit({ name: 'user.sign_in_failed', username: username.slice(0, MAX_AUDITED_USERNAME_LENGTH), clientId, address, reason });
      return undefined;
    };
    if (!username || username.length > MAX_CREDENTIAL_LENGTH || password.length > MAX_CREDENTIAL_LENGTH) return refuse('invalid_credentials');
    if (await this.signIns.isInBackOff(username, address)) return refuse('back_off');
    const user = await this.users.authenticate(username, password);
    if (!user) {
      await this.signIns.recordFailure(username, address);
      return refuse('invalid_credentials');
    }
    await this.signIns.recordSuccess(username, address);
    return user;
  }
}
