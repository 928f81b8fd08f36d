import type { CompanionAccessToken, NewRefreshToken, RefreshToken } from './refresh-token';

/** Where refresh tokens are stored, by the hash of their handle; also the DI token. */
export abstract class RefreshTokenRepository {
  abstract findByHash(tokenHash: string): Promise<RefreshToken | undefined>;
  /** Stores the first token of a new family. */
  abstract add(token: NewRefreshToken): Promise<void>;
  /**
   * Stores a rotated token in its family unless the family has been revoked, deciding under a lock
   * on the family so that a concurrent `revokeFamily` either sees the new token or prevents it.
   * Returns false when the family was revoked.
   */
  abstract addToFamily(token: NewRefreshToken): Promise<boolean>;
  /**
   * Marks an active token consumed in one conditional update: true for exactly one caller, false
   * when it was already consumed or revoked.
   */
  abstract consume(tokenHash: string, at: Date): Promise<boolean>;
  /** Revokes every token of the family; returns the unexpired access tokens issued with them. */
  abstract revokeFamily(familyId: string, at: Date): Promise<CompanionAccessToken[]>;
  /** Deletes at most `limit` tokens that expired before `cutoff`; returns how many. */
  abstract deleteExpiredBefore(cutoff: Date, limit: number): Promise<number>;
}
