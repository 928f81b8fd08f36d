import { addressKey } from './client-address';
import type { BackOffPolicy, CounterOp, CounterStore } from './counter-store';

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
 * hold back (docs/throttling.md#device-cookies). Attempts are counted before they are checked, not
 * after. Callers answer a back-off exactly like a wrong password.
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
   * Takes one attempt from the budgets before the password is checked, so that of a burst sent at
   * once no more than the budget is checked; false (nothing counted) when the sign-in is in back-off.
   * An attempt counts as a failure until `succeeded` says otherwise.
   *
   * `deviceId`: the sign-in carries a valid device cookie for this username (src/identity/sign-in/device-cookie.ts).
   * It is then judged by that device's own attempts alone, never by the address's: a device's
   * failures neither hurt nor use up its address's budgets.
   */
  async admit(username: string, address: string, deviceId?: string): Promise<boolean> {
    const ops = this.gates(username, address, deviceId);
    if (ops.length === 0) return true;
    const readings = await this.store.apply(ops, this.now());
    return !readings.some((reading) => reading.refused);
  }

  /** The password was right: the attempt was no failure. The pair's (or device's) failures are forgotten, the address's attempt given back. */
  async succeeded(username: string, address: string, deviceId?: string): Promise<void> {
    const ops: CounterOp[] = [];
    if (this.pairsCounted) ops.push({ kind: 'clear', key: deviceId !== undefined ? deviceKey(deviceId) : pairKey(username, address) });
    if (deviceId === undefined && this.addressesCounted) ops.push({ kind: 'release', key: addressFailuresKey(address) });
    if (ops.length > 0) await this.store.apply(ops, this.now());
  }

  private gates(username: string, address: string, deviceId: string | undefined): CounterOp[] {
    const ops: CounterOp[] = [];
    if (this.pairsCounted)
      ops.push({ kind: 'fail', key: deviceId !== undefined ? deviceKey(deviceId) : pairKey(username, address), policy: this.policy, gate: true });
    if (deviceId === undefined && this.addressesCounted) {
      ops.push({
        kind: 'hit',
        key: addressFailuresKey(address),
        limit: this.limits.addressFailures,
        windowMs: this.limits.addressWindowSeconds * 1000,
        gate: true,
      });
    }
    return ops;
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
