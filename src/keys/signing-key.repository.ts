import type { SigningAlgorithm } from '../config/app.config';
import type { StoredSigningKey } from './signing-key';

/** Where signing keys are stored, shared by every instance; also the DI token. */
export abstract class SigningKeyRepository {
  /** Keys that are not retired, newest first. */
  abstract findPublished(): Promise<StoredSigningKey[]>;
  /**
   * Stores `create()`'s key unless a published key for the algorithm exists, deciding under a lock
   * so that instances starting together agree on one key.
   */
  abstract createIfMissing(algorithm: SigningAlgorithm, create: () => Promise<StoredSigningKey>): Promise<void>;
}
