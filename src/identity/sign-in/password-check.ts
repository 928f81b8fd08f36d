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
    @Inject(SignInThrottle) private readonly signIns: Pick<SignInThrottle, 'isInBackOff' | 'recordFailure' | 'recordSuccess'>,
    @Inject(PasswordCheckQueue) private readonly queue: Pick<PasswordCheckQueue, 'run'>,
  ) {}

  async check({ username, password, address, deviceId }: PasswordAttempt): Promise<PasswordCheckResult> {
    const inBackOff = await this.signIns.isInBackOff(username, address, deviceId);
    // During a back-off the password is not checked, but a decoy is hashed all the same: the refusal
    // takes as long as a checked password, so timing does not reveal the back-off.
    const check = () => (inBackOff ? this.hasher.verify(password, undefined).then(() => undefined) : this.users.authenticate(username, password));
    const user = await this.queue.run(check, { trustedDevice: deviceId !== undefined });
    if (inBackOff) return { refusal: 'back_off' };
    if (!user) {
      await this.signIns.recordFailure(username, address, deviceId);
      return { refusal: 'invalid_credentials' };
    }
    await this.signIns.recordSuccess(username, address, deviceId);
    return { user };
  }
}
