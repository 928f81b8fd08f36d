import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PeriodicTask } from '../../platform/scheduling/periodic-task';
import { RevokedJwtIds, type RevokedAccessToken } from './revoked-access-token';
import { RevokedAccessTokenRepository } from './revoked-access-token.repository';

/** docs/endpoints.md#revocation: a revocation on one instance is honoured by the others within 5 s. */
export const DENY_LIST_POLL_INTERVAL_MS = 1000;
// A revocation is stamped with its statement's start time and may commit a little later; re-reading
// this much before the previous read catches one that committed after that read began.
const POLL_OVERLAP_MS = 15_000;
// Longer than the 60 s clock skew AccessTokenValidator tolerates after `exp`.
const GRACE_SECONDS = 120;
const PURGE_INTERVAL_MS = 10 * 60_000;

/**
 * Revoked access tokens (RFC 7009), honoured by the access-token validation and so by userinfo,
 * introspection, delegation and token exchange. Checks are in memory: this instance's revocations
 * are added at once, the other instances' are read from the shared table every second, and only
 * the rows revoked since the previous read are fetched. Nothing is read on the request path.
 */
@Injectable()
export class AccessTokenDenyList implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccessTokenDenyList.name);
  private readonly revoked = new RevokedJwtIds(GRACE_SECONDS);
  private lastReadAt?: Date;
  private inFlight?: Promise<void>;
  private readonly tasks = [
    new PeriodicTask({ name: 'Reading revoked access tokens', periodMs: DENY_LIST_POLL_INTERVAL_MS, run: () => this.refresh(), log: this.logger }),
    new PeriodicTask({ name: 'Purging revoked access tokens', periodMs: PURGE_INTERVAL_MS, run: () => this.purge(), log: this.logger }),
  ];

  constructor(private readonly repository: RevokedAccessTokenRepository) {}

  async onModuleInit(): Promise<void> {
    await this.refresh();
    for (const task of this.tasks) task.start();
  }

  onModuleDestroy(): void {
    for (const task of this.tasks) task.stop();
  }

  isRevoked(jwtId: string): boolean {
    return this.revoked.has(jwtId);
  }

  /** Denies the tokens here at once and, through the shared table, on every other instance. */
  async revoke(tokens: readonly RevokedAccessToken[]): Promise<void> {
    if (tokens.length === 0) return;
    await this.repository.add(tokens);
    this.revoked.add(tokens, nowSeconds());
  }

  /** Reads the revocations made since the previous read, by any instance. */
  refresh(): Promise<void> {
    this.inFlight ??= this.readNewRevocations().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Deletes the table's entries for tokens that every instance rejects as expired anyway. */
  async purge(): Promise<number> {
    return this.repository.deleteExpiredBefore(new Date((nowSeconds() - GRACE_SECONDS) * 1000));
  }

  private async readNewRevocations(): Promise<void> {
    const now = nowSeconds();
    const since = this.lastReadAt && new Date(this.lastReadAt.getTime() - POLL_OVERLAP_MS);
    const read = await this.repository.findRevokedSince(since, new Date((now - GRACE_SECONDS) * 1000));
    this.revoked.prune(now);
    this.revoked.add(read.tokens, now);
    this.lastReadAt = read.readAt;
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
