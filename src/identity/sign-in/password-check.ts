import { Inject, Injectable } from '@nestjs/common';
import { SignInThrottle } from '../../platform/rate-limit/sign-in.throttle';
import { PasswordHasher } from '../users/password.hasher';
import type { User } from '../users/user';
import { UserDirectory } from '../users/user-directory';
import { PasswordCheckQueue } from './password-check.queue';

export interface PasswordAttempt {
  readonly username: string;
  readonly password: string;
  readonly address: string;
  /** Set when the attempt carries a valid device cookie for `username`. */
  readonly deviceId?: string;
}

export type PasswordRefusal = 'invalid_credentials' | 'back_off';
export type PasswordCheckResult = { readonly user: User; readonly refusal?: undefined } | { readonly user?: undefined; readonly refusal: PasswordRefusal };

/**
 * A user's password, checked within the sign-in back-off and the bound on concurrent hashing
 * (docs/throttling.md), for every place a user signs in. Throws `503 temporarily_unavailable` when
 * the hashing queue is full.
 */
@Injectable()
export class PasswordCheck {
  constructor(
    @Inject(UserDirectory) private readonly users: Pick<UserDirectory, 'authenticate'>,
    @Inject(PasswordHasher) private readonly hasher: Pick<PasswordHasher, 'verify'>,
    @Inject(SignInThrottle) private readonly signIns: Pick<SignInThrottle, 'admit' | 'succeeded'>,
    @Inject(PasswordCheckQueue) private readonly queue: Pick<PasswordCheckQueue, 'run'>,
  ) {}

  async check({ username, password, address, deviceId }: PasswordAttempt): Promise<PasswordCheckResult> {
    const result = await this.queue.run(() => this.checkAdmitted({ username, password, address, deviceId }), {
      trustedUser: deviceId === undefined ? undefined : username,
    });
    if (result.user) await this.signIns.succeeded(username, address, deviceId);
    return result;
  }

  /**
   * In a hashing slot, the attempt is counted first (a refused check counts in no budget), and
   * checked only when the back-off admits it.
   */
  private async checkAdmitted({ username, password, address, deviceId }: PasswordAttempt): Promise<PasswordCheckResult> {
    if (!(await this.signIns.admit(username, address, deviceId))) {
      // The password is not checked, but a decoy is hashed all the same: the refusal takes as long
      // as a checked password, so timing does not reveal the back-off.
      await this.hasher.verify(password, undefined);
      return { refusal: 'back_off' };
    }
    const user = await this.users.authenticate(username, password);
    return user ? { user } : { refusal: 'invalid_credentials' };
  }
}
