import type { CounterStore } from './counter-store';

export interface UserCodeLimits {
  /** Wrong user codes one signed-in user may enter per window. */
  readonly failures: number;
  readonly windowSeconds: number;
}

export const DEFAULT_USER_CODE_LIMITS: UserCodeLimits = { failures: 10, windowSeconds: 15 * 60 };

/**
 * Guessing of device user codes on the verification page (RFC 8628 §5.1, docs/throttling.md#user-codes):
 * only a signed-in user may enter codes, and wrong ones are counted per user. A user over the budget
 * waits until the window ends; nobody else, at the same address or not, is held back by it.
 */
export class UserCodeThrottle {
  constructor(
    private readonly store: CounterStore,
    private readonly limits: UserCodeLimits = DEFAULT_USER_CODE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes one try from the user's budget before the code is looked up, so that of a burst sent at
   * once no more than the budget is looked up: 0 when admitted (it counts as a wrong code until
   * `succeeded`), else the seconds until the user may enter codes again (nothing counted).
   */
  async admit(subject: string): Promise<number> {
    const now = this.now();
    const [reading] = await this.store.apply(
      [{ kind: 'hit', key: userKey(subject), limit: this.limits.failures, windowMs: this.limits.windowSeconds * 1000, gate: true }],
      now,
    );
    return reading.refused ? Math.max(1, Math.ceil((reading.untilMs - now) / 1000)) : 0;
  }

  /** The code was right: the try is given back. */
  async succeeded(subject: string): Promise<void> {
    await this.store.apply([{ kind: 'release', key: userKey(subject) }], this.now());
  }
}

function userKey(subject: string): string {
  return `user-code|${subject.slice(0, 256)}`;
}
