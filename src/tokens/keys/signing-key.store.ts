import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { ConfigType } from '../../platform/config/config-slice';
import { signingKeysConfig } from '../../platform/config/config.slices';
import { PeriodicTask } from '../../platform/scheduling/periodic-task';
import { KEY_ENCRYPTION_KEYRING } from '../../platform/key-encryption/key-encryption-key';
import { byActivationDescending, ID_TOKEN_SIGNING_ALGORITHM } from './key-rotation-plan';
import type { KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';
import { loadPublishedKey, loadSigningKey, type PublishedKey, type SigningKey, type StoredSigningKey } from './signing-key';
import { SigningKeyRepository } from './signing-key.repository';
import { SigningKeyRotator } from './signing-key.rotator';

/**
 * The published signing keys, parsed once and kept in memory. Every instance reloads them every
 * `CACHE_TTL_SECONDS` and signs with the newest key of `SIGNING_ALG` whose activation time has
 * come by the database's clock, so all instances switch keys within that period of each other.
 * At boot and every `KEY_ROTATION_CHECK_INTERVAL` it runs a rotation check (under a database lock).
 */
/** At most one reload per this period for tokens naming a key this instance does not know. */
export const UNKNOWN_KID_RELOAD_INTERVAL_MS = 1000;

@Injectable()
export class SigningKeyStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SigningKeyStore.name);
  private published = new Map<string, PublishedKey>();
  private signing = new Map<string, SigningKey>();
  /** Keys this instance cannot open, reported once each. */
  private unusable = new Map<string, string>();
  private active?: SigningKey;
  private idTokenKey?: SigningKey;
  private tasks: PeriodicTask[] = [];
  private unknownKidReload?: Promise<void>;
  private lastUnknownKidReload = 0;

  constructor(
    private readonly repository: SigningKeyRepository,
    private readonly rotator: SigningKeyRotator,
    @Inject(KEY_ENCRYPTION_KEYRING) private readonly keyring: KeyEncryptionKeyring,
    @Inject(signingKeysConfig.KEY) private readonly config: ConfigType<typeof signingKeysConfig>,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.rotator.rotateIfDue();
    await this.reload();
    if (!this.active) {
      const reasons = [...this.unusable.values()].join('; ');
      throw new Error(`No usable ${this.config.signingAlgorithm} signing key${reasons ? `: ${reasons}` : ''}`);
    }
    this.logger.log(`Signing with key ${this.active.kid} (${this.active.algorithm})`);
    this.tasks = [
      new PeriodicTask({
        name: 'Reloading signing keys',
        periodMs: Math.max(this.config.cacheTtlSeconds, 1) * 1000,
        run: () => this.reload(),
        log: this.logger,
      }),
      new PeriodicTask({
        name: 'Checking signing-key rotation',
        periodMs: this.config.keyRotation.checkIntervalSeconds * 1000,
        run: async () => {
          await this.rotator.rotateIfDue();
          await this.reload();
        },
        log: this.logger,
      }),
    ];
    for (const task of this.tasks) task.start();
  }

  onModuleDestroy(): void {
    for (const task of this.tasks) task.stop();
  }

  /** The key new tokens are signed with. */
  signingKey(): SigningKey {
    if (!this.active) throw new Error(`No ${this.config.signingAlgorithm} signing key is loaded`);
    return this.active;
  }

  /**
   * The key ID tokens are signed with: the newest active RS256 key (docs/tokens.md#id-token-signing),
   * or the signing key until one is active (a new one waits out the propagation time).
   */
  idTokenSigningKey(): SigningKey {
    return this.idTokenKey ?? this.signingKey();
  }

  /** The signing key, or undefined when none is usable (for health and metrics, which must not throw). */
  get activeSigningKey(): SigningKey | undefined {
    return this.active;
  }

  /** A published key by `kid`, for verification. */
  verificationKey(kid: string): PublishedKey | undefined {
    return this.published.get(kid);
  }

  /**
   * A key this instance has not loaded yet: another instance may have just created it (a forced
   * rotation), so the published keys are reloaded at once instead of at the next CACHE_TTL_SECONDS
   * tick. Concurrent callers share one reload, and reloads for unknown kids are rate-limited.
   */
  async verificationKeyAfterReload(kid: string): Promise<PublishedKey | undefined> {
    if (!this.unknownKidReload) {
      if (Date.now() - this.lastUnknownKidReload < UNKNOWN_KID_RELOAD_INTERVAL_MS) return undefined;
      this.lastUnknownKidReload = Date.now();
      this.unknownKidReload = this.reload()
        .catch((error: Error) => this.logger.warn(`Signing keys: ${error.message}`))
        .finally(() => (this.unknownKidReload = undefined));
    }
    await this.unknownKidReload;
    return this.published.get(kid);
  }

  publishedKeys(): PublishedKey[] {
    return [...this.published.values()];
  }

  /** Every algorithm of a published key, the signing one first: tokens of each still verify. */
  publishedAlgorithms(): string[] {
    const algorithms = new Set<string>(this.active ? [this.active.algorithm] : []);
    for (const key of this.published.values()) algorithms.add(key.algorithm);
    return [...algorithms];
  }

  async reload(): Promise<void> {
    const { keys, now } = await this.repository.findPublished();
    const published = new Map<string, PublishedKey>();
    const signing = new Map<string, SigningKey>();
    for (const stored of keys) {
      const key = this.published.get(stored.kid) ?? this.tryLoad(stored, () => loadPublishedKey(stored, this.keyring));
      if (!key) continue;
      published.set(key.kid, key);
      const eligible = stored.activatesAt.getTime() <= now.getTime();
      const signingKey = eligible ? (this.signing.get(stored.kid) ?? this.tryLoad(stored, () => loadSigningKey(stored, key, this.keyring))) : undefined;
      if (signingKey) signing.set(signingKey.kid, signingKey);
    }
    this.published = published;
    this.signing = signing;
    // Until a key of a new SIGNING_ALG activates, the previous algorithm's newest key signs on.
    const candidates = [...signing.values()].sort(byActivationDescending);
    const active = candidates.find((key) => key.algorithm === this.config.signingAlgorithm) ?? candidates[0];
    if (active && this.active && active.kid !== this.active.kid) this.logger.log(`Now signing with key ${active.kid} (was ${this.active.kid})`);
    this.active = active;
    this.idTokenKey = candidates.find((key) => key.algorithm === ID_TOKEN_SIGNING_ALGORITHM);
  }

  private tryLoad<T>(stored: StoredSigningKey, load: () => T): T | undefined {
    if (this.unusable.has(stored.kid)) return undefined;
    try {
      return load();
    } catch (error) {
      const message = (error as Error).message;
      const reason = message.includes(stored.kid) ? message : `signing key ${stored.kid}: ${message}`;
      this.unusable.set(stored.kid, reason);
      this.logger.error(`Cannot use ${reason}`);
      return undefined;
    }
  }
}
