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

  /** Before the credentials are checked. */
  async admit(address: string, clientId: string | undefined): Promise<void> {
    const failures = this.failureCounter(address, clientId);
    if (!failures) return;
    const now = this.now();
    const [reading] = await this.store.apply([{ kind: 'peek', key: failures.key }], now);
    if (isOver(reading, failures.limit, now)) throw tooManyRequests(reading, now, 'too many failed client authentications');
  }

  async failed(address: string, clientId: string | undefined): Promise<void> {
    const failures = this.failureCounter(address, clientId);
    if (!failures) return;
    await this.store.apply([{ kind: 'hit', key: failures.key, limit: failures.limit, windowMs: this.limits.windowSeconds * 1000 }], this.now());
  }

  /** After a successful authentication: the quotas, when an operator turned them on. */
  async succeeded(address: string, clientId: string): Promise<void> {
    const windowMs = this.limits.windowSeconds * 1000;
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
    if (quotas.length === 0) return;
    const now = this.now();
    const readings = await this.store.apply(
      quotas.map((quota) => quota.op),
      now,
    );
    readings.forEach((reading, i) => {
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

function isOver(reading: CounterReading, limit: number, now: number): boolean {
  return reading.count >= limit && reading.untilMs > now;
}

function tooManyRequests(reading: CounterReading, now: number, description: string): OAuthError {
  const retryAfterSeconds = Math.max(1, Math.ceil((reading.untilMs - now) / 1000));
  return new OAuthError('temporarily_unavailable', description, { status: 429, retryAfterSeconds });
}
