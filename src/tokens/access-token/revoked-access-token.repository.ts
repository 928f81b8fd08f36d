import type { RevokedAccessToken } from './revoked-access-token';

/** Revocations read from the shared table, with the database's clock at the time of reading. */
export interface RevocationsRead {
  readonly tokens: readonly RevokedAccessToken[];
  readonly readAt: Date;
}

/** The deny list shared by every instance (table `revoked_access_tokens`); also the DI token. */
export abstract class RevokedAccessTokenRepository {
  /** Adds tokens; one already on the list is left as it is. */
  abstract add(tokens: readonly RevokedAccessToken[]): Promise<void>;
  /**
   * Tokens revoked at or after `since` (every one when undefined) that have not expired before
   * `liveAfter`.
   */
  abstract findRevokedSince(since: Date | undefined, liveAfter: Date): Promise<RevocationsRead>;
  /** Deletes the entries of tokens that expired before `cutoff`; returns how many. */
  abstract deleteExpiredBefore(cutoff: Date): Promise<number>;
}
