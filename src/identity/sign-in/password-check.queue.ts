import { OAuthError } from '../../protocol/oauth-error';

export interface PasswordCheckLimits {
  /** Password checks (scrypt, or the user directory's own) running at once; 0 = unbounded. */
  readonly concurrency: number;
  /** Checks waiting for a slot, per lane; one more is refused at once. */
  readonly queueLength: number;
  /** Longest wait for a slot before the check is refused. */
  readonly queueTimeoutMs: number;
}

/** `503 temporarily_unavailable` with `Retry-After` (docs/errors.md table); the login page shows its own page. */
export class PasswordChecksBusy extends OAuthError {
  constructor(readonly retryAfterSeconds: number) {
    super('temporarily_unavailable', 'too many sign-ins are being checked; try again shortly', { status: 503, retryAfterSeconds });
  }
}

interface Waiter {
  readonly start: () => void;
  readonly timer: NodeJS.Timeout;
}

/** Where a check waits: `trustedUser` is the username a valid device cookie of the sign-in was issued for. */
export interface PasswordCheckLane {
  readonly trustedUser?: string;
}

/**
 * Bounds concurrent password hashing (docs/throttling.md#password-hashing): a flood of wrong
 * passwords from many addresses, each under every budget, must not make a real user's sign-in wait
 * behind thousands of scrypt runs. Holders of a device cookie wait in a lane of their own that goes
 * first, one check at a time per user: a second one while the first waits or runs is refused, so a
 * cookie (or many, for one account) buys its holder one place and never starves anyone else.
 * Whoever finds their lane full, or waits past the deadline, gets a fast
 * `503 temporarily_unavailable` instead of a slow answer.
 */
export class PasswordCheckQueue {
  private running = 0;
  private readonly trusted: Waiter[] = [];
  private readonly others: Waiter[] = [];
  /** The users with a check in the trusted lane, waiting or running. */
  private readonly trustedUsers = new Set<string>();

  constructor(private readonly limits: PasswordCheckLimits) {}

  async run<T>(check: () => Promise<T>, { trustedUser }: PasswordCheckLane): Promise<T> {
    if (this.limits.concurrency <= 0) return check();
    if (trustedUser === undefined) return this.inLane(this.others, check);
    if (this.trustedUsers.has(trustedUser)) throw this.busy();
    this.trustedUsers.add(trustedUser);
    try {
      return await this.inLane(this.trusted, check);
    } finally {
      this.trustedUsers.delete(trustedUser);
    }
  }

  private async inLane<T>(lane: Waiter[], check: () => Promise<T>): Promise<T> {
    await this.slot(lane);
    try {
      return await check();
    } finally {
      this.release();
    }
  }

  private slot(lane: Waiter[]): Promise<void> {
    if (this.running < this.limits.concurrency && this.trusted.length + this.others.length === 0) {
      this.running++;
      return Promise.resolve();
    }
    if (lane.length >= this.limits.queueLength) return Promise.reject(this.busy());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: resolve,
        timer: setTimeout(() => {
          lane.splice(lane.indexOf(waiter), 1);
          reject(this.busy());
        }, this.limits.queueTimeoutMs),
      };
      waiter.timer.unref();
      lane.push(waiter);
    });
  }

  /** The finished check's slot passes to the next waiter, device-cookie holders first. */
  private release(): void {
    const next = this.trusted.shift() ?? this.others.shift();
    if (!next) {
      this.running--;
      return;
    }
    clearTimeout(next.timer);
    next.start();
  }

  private busy(): PasswordChecksBusy {
    return new PasswordChecksBusy(Math.max(1, Math.ceil(this.limits.queueTimeoutMs / 1000)));
  }
}
