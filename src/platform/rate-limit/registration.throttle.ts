import { OAuthError } from '../../protocol/oauth-error';
import { addressKey } from './client-address';
import type { CounterStore } from './counter-store';

export interface RegistrationLimits {
  /** Registration requests per address per window; 0 = off. */
  readonly perAddress: number;
  readonly windowSeconds: number;
}

/**
 * Dynamic client registration (RFC 7591 §3, docs/agents.md#throttling): requests are counted per
 * client address, as failed client authentications are; an address over the budget gets 429 until
 * its window ends, and no other address is held back by it.
 */
export class RegistrationThrottle {
  constructor(
    private readonly store: CounterStore,
    private readonly limits: RegistrationLimits,
    private readonly now: () => number = Date.now,
  ) {}

  async admit(address: string): Promise<void> {
    if (this.limits.perAddress <= 0) return;
    const now = this.now();
    const op = { kind: 'hit', key: `registrations|${addressKey(address)}`, limit: this.limits.perAddress, windowMs: this.limits.windowSeconds * 1000 } as const;
    const [reading] = await this.store.apply([op], now);
    if (reading.count > this.limits.perAddress) {
      const retryAfterSeconds = Math.max(1, Math.ceil((reading.untilMs - now) / 1000));
      throw new OAuthError('temporarily_unavailable', 'too many registrations from this address', { status: 429, retryAfterSeconds });
    }
  }
}
