import { OAuthError } from '../../protocol/oauth-error';
import { addressKey } from './client-address';
import type { CounterOp, CounterReading, CounterStore } from './counter-store';

export interface ClientAuthLimits {
  readonly windowSeconds: number;
  /** Failed authentications per (address, client_id) per window; 0 = off. */
  readonly failuresPerClient: number;
  /** Failed authentications naming no client, per address per window; 0 = off. */
  readonly failuresWithoutClient: number;
  /** Quotas on authenticated requests, per client and per address per window; 0 = off. */
  readonly perClient: number;
  readonly perAddress: number;
}

/** An attempt `admit` counted as a failure until it is given back. */
export interface AdmittedAttempt {
  readonly address: string;
  readonly clientId: string | undefined;
}

/**
 * Throttling at the endpoints that authenticate clients (docs/throttling.md). Failures count per
 * (address, client_id), so guessing from one address never locks the client out elsewhere, nor
 * other clients out of that address; failures naming no client count per address and only ever
 * hold back requests that name no client.
 */
export class ClientAuthThrottle {
  constructor(
    private readonly store: CounterStore,
    private readonly limits: ClientAuthLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Before the credentials are checked: one attempt taken from the budget of failures, so that of a
   * burst sent at once no more than the budget is checked (as for sign-ins and user codes). The
   * attempt counts as a failure until `succeeded` or `release` gives it back; over the budget, 429
   * and nothing counted.
   */
  async admit(address: string, clientId: string | undefined): Promise<AdmittedAttempt> {
    const attempt = { address, clientId };
    const failures = this.failureCounter(address, clientId);
    if (!failures) return attempt;
    const now = this.now();
    const windowMs = this.limits.windowSeconds * 1000;
    const [reading] = await this.store.apply([{ kind: 'hit', key: failures.key, limit: failures.limit, windowMs, gate: true }], now);
    if (reading.refused) throw tooManyRequests(reading, now, 'too many failed client authentications');
    return attempt;
  }

  /** The admitted attempt failed for another reason than its credentials (a malformed request, an outage): no failure. */
  async release({ address, clientId }: AdmittedAttempt): Promise<void> {
    const failures = this.failureCounter(address, clientId);
    if (failures) await this.store.apply([{ kind: 'release', key: failures.key }], this.now());
  }

  /**
   * After a successful authentication of `clientId`: its admitted attempt, if it was counted, is
   * given back, and the quotas apply when an operator turned them on.
   */
  async succeeded(address: string, clientId: string, admitted?: AdmittedAttempt): Promise<void> {
    const windowMs = this.limits.windowSeconds * 1000;
    const failures = admitted && this.failureCounter(admitted.address, admitted.clientId);
    const released: CounterOp[] = failures ? [{ kind: 'release', key: failures.key }] : [];
    const quotas: { op: CounterOp; limit: number; description: string }[] = [];
    if (this.limits.perClient > 0) {
      quotas.push({
        op: { kind: 'hit', key: `quota-client|${clientId}`, limit: this.limits.perClient, windowMs },
        limit: this.limits.perClient,
        description: 'too many requests for this client',
      });
    }
    if (this.limits.perAddress > 0) {
      quotas.push({
        op: { kind: 'hit', key: `quota-address|${addressKey(address)}`, limit: this.limits.perAddress, windowMs },
        limit: this.limits.perAddress,
        description: 'too many requests from this address',
      });
    }
    if (released.length + quotas.length === 0) return;
    const now = this.now();
    const readings = await this.store.apply([...released, ...quotas.map((quota) => quota.op)], now);
    readings.slice(released.length).forEach((reading, i) => {
      if (reading.count > quotas[i].limit) throw tooManyRequests(reading, now, quotas[i].description);
    });
  }

  private failureCounter(address: string, clientId: string | undefined): { key: string; limit: number } | undefined {
    const { failuresPerClient, failuresWithoutClient } = this.limits;
    if (clientId !== undefined)
      return failuresPerClient > 0 ? { key: `auth-failures|${addressKey(address)}|${clientId.slice(0, 200)}`, limit: failuresPerClient } : undefined;
    return failuresWithoutClient > 0 ? { key: `auth-failures-anonymous|${addressKey(address)}`, limit: failuresWithoutClient } : undefined;
  }
}

function tooManyRequests(reading: CounterReading, now: number, description: string): OAuthError {
  const retryAfterSeconds = Math.max(1, Math.ceil((reading.untilMs - now) / 1000));
  return new OAuthError('temporarily_unavailable', description, { status: 429, retryAfterSeconds });
}
