import type { AuthorizationCode, IssuedFromCode } from './authorization-code';

/** Where authorization codes are stored, by hash; also the DI token. */
export abstract class AuthorizationCodeRepository {
  abstract add(code: AuthorizationCode): Promise<void>;
  /** The code and whether it was used already (consumed). */
  abstract find(codeHash: string): Promise<{ readonly code: AuthorizationCode; readonly used: boolean } | undefined>;
  /**
   * Marks the code used in one conditional update: true for exactly one caller. Otherwise the code
   * was used before: it is marked replayed and what it issued (if recorded yet) is returned.
   */
  abstract consume(codeHash: string, at: Date): Promise<{ consumed: true } | { consumed: false; issued?: IssuedFromCode }>;
  /** Records the access token issued for a consumed code; returns false when the code was replayed meanwhile. */
  abstract recordIssued(codeHash: string, issued: IssuedFromCode): Promise<boolean>;
  abstract deleteExpiredBefore(cutoff: Date): Promise<number>;
}
