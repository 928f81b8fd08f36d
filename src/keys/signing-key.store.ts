import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { generateSigningKey, loadSigningKey, type SigningKey } from './signing-key';
import { SigningKeyRepository } from './signing-key.repository';

/**
 * The published signing keys, parsed once and kept in memory. The first instance to start creates
 * a key; every instance reloads the set every `CACHE_TTL_SECONDS` to see keys the others added.
 */
@Injectable()
export class SigningKeyStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SigningKeyStore.name);
  private byKid = new Map<string, SigningKey>();
  private active?: SigningKey;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly repository: SigningKeyRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.reload();
    if (!this.active) {
      await this.repository.createIfMissing(this.config.signingAlgorithm, () => generateSigningKey(this.config.signingAlgorithm));
      await this.reload();
      this.logger.log(`Signing key ${this.signingKey().kid} (${this.config.signingAlgorithm}) in use`);
    }
    const period = Math.max(this.config.cacheTtlSeconds, 1) * 1000;
    this.timer = setInterval(() => void this.reload().catch((error: Error) => this.logger.warn(`Reloading signing keys failed: ${error.message}`)), period);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** The key new tokens are signed with. */
  signingKey(): SigningKey {
    if (!this.active) throw new Error(`No ${this.config.signingAlgorithm} signing key is loaded`);
    return this.active;
  }

  /** A published key by `kid`, for verification. */
  verificationKey(kid: string): SigningKey | undefined {
    return this.byKid.get(kid);
  }

  publishedKeys(): SigningKey[] {
    return [...this.byKid.values()];
  }

  async reload(): Promise<void> {
    const stored = await this.repository.findPublished();
    const byKid = new Map<string, SigningKey>();
    for (const key of stored) byKid.set(key.kid, this.byKid.get(key.kid) ?? loadSigningKey(key));
    this.byKid = byKid;
    this.active = [...byKid.values()].find((key) => key.algorithm === this.config.signingAlgorithm);
  }
}
