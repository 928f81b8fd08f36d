import type { CompanionAccessToken, NewRefreshToken, RefreshToken, RotationOutcome } from './refresh-token';

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
   * In one transaction, under the family's lock: marks the active token `consumedHash` consumed and
   * stores its successor. Either both happen or neither: `consumed` when another request used the
   * token first (exactly one caller gets `rotated`), `revoked` when the family was revoked.
   */
  abstract rotate(consumedHash: string, successor: NewRefreshToken, at: Date): Promise<RotationOutcome>;
  /** Revokes every token of the family; returns the unexpired access tokens issued with them. */
  abstract revokeFamily(familyId: string, at: Date): Promise<CompanionAccessToken[]>;
  /** The family of the refresh token issued together with an access token, if any. */
  abstract findFamilyIdByAccessToken(jwtId: string): Promise<string | undefined>;
  /** Deletes at most `limit` tokens that expired before `cutoff`; returns how many. */
  abstract deleteExpiredBefore(cutoff: Date, limit: number): Promise<number>;
}
