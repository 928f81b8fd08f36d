import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
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
 * Revoked access tokens (RFC 7009), honoured by `AccessTokenValidator` and so by userinfo,
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
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly repository: RevokedAccessTokenRepository) {}

  async onModuleInit(): Promise<void> {
    await this.refresh();
    this.every(DENY_LIST_POLL_INTERVAL_MS, () => this.refresh(), 'Reading revoked access tokens');
    this.every(PURGE_INTERVAL_MS, () => this.purge(), 'Purging revoked access tokens');
  }

  onModuleDestroy(): void {
    for (const timer of this.timers) clearInterval(timer);
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

  /** Runs `task` periodically; a failure is logged when it starts and when it ends, not every second. */
  private every(periodMs: number, task: () => Promise<unknown>, what: string): void {
    let failing = false;
    const run = () =>
      task().then(
        () => {
          if (failing) this.logger.log(`${what} works again`);
          failing = false;
        },
        (error: Error) => {
          if (!failing) this.logger.warn(`${what} failed: ${error.message}`);
          failing = true;
        },
      );
    const timer = setInterval(() => void run(), periodMs);
    timer.unref();
    this.timers.push(timer);
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
