import { addressKey } from './client-address';
import type { BackOffPolicy, CounterOp, CounterReading, CounterStore } from './counter-store';

export interface SignInLimits {
  /** Failures of one (username, address) before its back-off starts; 0 = off. */
  readonly failuresBeforeBackOff: number;
  readonly backOffSeconds: number;
  readonly maxBackOffSeconds: number;
  /** Failed sign-ins from one address, whatever the usernames, per window; 0 = off. */
  readonly addressFailures: number;
  readonly addressWindowSeconds: number;
}

const MAX_USERNAME_KEY_LENGTH = 256;

/**
 * Brute-force protection for user passwords (docs/throttling.md), shared by every place a user
 * signs in. Counted per (username, address): guessing from one address never locks the user out
 * from another; and per device for a browser with a device cookie, which its address's failures never
 * hold back (docs/throttling.md#device-cookies). Callers answer a back-off exactly like a wrong password.
 */
export class SignInThrottle {
  private readonly policy: BackOffPolicy;

  constructor(
    private readonly store: CounterStore,
    private readonly limits: SignInLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.policy = { threshold: limits.failuresBeforeBackOff, baseMs: limits.backOffSeconds * 1000, maxMs: limits.maxBackOffSeconds * 1000 };
  }

  /**
   * `deviceId`: the sign-in carries a valid device cookie for this username (src/sign-in/device-cookie.ts).
   * It is then judged by that device's own failures alone, never by the address's.
   */
  async isInBackOff(username: string, address: string, deviceId?: string): Promise<boolean> {
    const now = this.now();
    const checks: [CounterOp, (reading: CounterReading) => boolean][] = [];
    if (deviceId !== undefined) {
      if (this.pairsCounted) checks.push([{ kind: 'peek', key: deviceKey(deviceId) }, (reading) => reading.untilMs > now]);
    } else {
      if (this.pairsCounted) checks.push([{ kind: 'peek', key: pairKey(username, address) }, (reading) => reading.untilMs > now]);
      if (this.addressesCounted) {
        checks.push([{ kind: 'peek', key: addressFailuresKey(address) }, (reading) => reading.untilMs > now && reading.count >= this.limits.addressFailures]);
      }
    }
    if (checks.length === 0) return false;
    const readings = await this.store.apply(
      checks.map(([op]) => op),
      now,
    );
    return readings.some((reading, i) => checks[i][1](reading));
  }

  /** A device's failures count for that device alone: they neither hurt nor use up its address's budgets. */
  async recordFailure(username: string, address: string, deviceId?: string): Promise<void> {
    const ops: CounterOp[] = [];
    if (deviceId !== undefined) {
      if (this.pairsCounted) ops.push({ kind: 'fail', key: deviceKey(deviceId), policy: this.policy });
    } else {
      if (this.pairsCounted) ops.push({ kind: 'fail', key: pairKey(username, address), policy: this.policy });
      if (this.addressesCounted) {
        ops.push({ kind: 'hit', key: addressFailuresKey(address), limit: this.limits.addressFailures, windowMs: this.limits.addressWindowSeconds * 1000 });
      }
    }
    if (ops.length > 0) await this.store.apply(ops, this.now());
  }

  async recordSuccess(username: string, address: string, deviceId?: string): Promise<void> {
    if (this.pairsCounted)
      await this.store.apply([{ kind: 'clear', key: deviceId !== undefined ? deviceKey(deviceId) : pairKey(username, address) }], this.now());
  }

  private get pairsCounted(): boolean {
    return this.limits.failuresBeforeBackOff > 0;
  }

  private get addressesCounted(): boolean {
    return this.limits.addressFailures > 0;
  }
}

function pairKey(username: string, address: string): string {
  return `sign-in|${addressKey(address)}|${username.slice(0, MAX_USERNAME_KEY_LENGTH)}`;
}

function deviceKey(deviceId: string): string {
  return `sign-in-device|${deviceId.slice(0, 64)}`;
}

function addressFailuresKey(address: string): string {
  return `sign-in-address|${addressKey(address)}`;
}
