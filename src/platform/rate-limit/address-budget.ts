import { OAuthError } from '../../protocol/oauth-error';
import { addressKey } from './client-address';
import type { CounterStore } from './counter-store';

export interface AddressBudgetLimits {
  /** Requests per address per window; 0 = off. */
  readonly perAddress: number;
  readonly windowSeconds: number;
}

/**
 * A budget of requests per client address (docs/throttling.md), counted before the work it guards:
 * an address over it gets `429 temporarily_unavailable` with Retry-After until its window ends, and
 * no other address is held back by it.
 */
export class AddressBudget {
  constructor(
    private readonly store: CounterStore,
    /** Names the counters, e.g. `registrations`. */
    private readonly name: string,
    /** What the 429 says, e.g. `too many registrations from this address`. */
    private readonly refusal: string,
    private readonly limits: AddressBudgetLimits,
    private readonly now: () => number = Date.now,
  ) {}

  async admit(address: string): Promise<void> {
    if (this.limits.perAddress <= 0) return;
    const now = this.now();
    const op = { kind: 'hit', key: `${this.name}|${addressKey(address)}`, limit: this.limits.perAddress, windowMs: this.limits.windowSeconds * 1000 } as const;
    const [reading] = await this.store.apply([op], now);
    if (reading.count > this.limits.perAddress) {
      const retryAfterSeconds = Math.max(1, Math.ceil((reading.untilMs - now) / 1000));
      throw new OAuthError('temporarily_unavailable', this.refusal, { status: 429, retryAfterSeconds });
    }
  }
}
