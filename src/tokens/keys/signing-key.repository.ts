import type { GeneratedSigningKey, StoredSigningKey } from './signing-key';

/** Keys as read at one moment, with that moment by the database's clock (never an instance's own). */
export interface KeySnapshot {
  readonly keys: readonly StoredSigningKey[];
  readonly now: Date;
}

/** What a rotation check may do while it holds the rotation lock. */
export interface KeyRotationSession {
  /** Every key not yet retired, published or scheduled, with the transaction's `now`. */
  unretiredKeys(): Promise<KeySnapshot>;
  /** The longest access-token lifetime any client has, in seconds: how long a token may outlive its key's last signature. */
  longestAccessTokenLifetime(): Promise<number>;
  insert(key: GeneratedSigningKey, sealedPrivateKey: string, createdAt: Date, activatesAt: Date): Promise<void>;
  scheduleRetirement(kid: string, retiresAt: Date): Promise<void>;
  /** Ends publication; the row stays (never deleted), sealed. */
  retire(kids: readonly string[]): Promise<void>;
  /** Replaces a plaintext or previously sealed private part with one sealed under the current key-encryption key. */
  reseal(kid: string, previousPrivateKey: string, sealedPrivateKey: string, publicKeyPem: string): Promise<void>;
}

/** Where signing keys are stored, shared by every instance; also the DI token. */
export abstract class SigningKeyRepository {
  /** Keys published now (created, not retired, retirement time not reached), newest activation first. */
  abstract findPublished(): Promise<KeySnapshot>;
  /**
   * Runs `work` in one transaction holding a database-wide lock, so that instances checking at the
   * same moment take turns and each sees what the previous one decided.
   */
  abstract inRotationLock<T>(work: (session: KeyRotationSession) => Promise<T>): Promise<T>;
}
