import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK_SKEW_SECONDS } from '../../protocol/clock-skew';
import type { SigningAlgorithm } from '../../platform/config/app.config';
import { AuditSink } from '../../platform/audit/audit-event';
import type { ConfigType } from '../../platform/config/config-slice';
import { signingKeysConfig } from '../../platform/config/config.slices';
import { keyPropagationWarning } from '../../platform/config/production-safety';
import { KEY_ENCRYPTION_KEYRING } from '../../platform/key-encryption/key-encryption-key';
import { planRotations, rotatedAlgorithms, type KeyRotationPolicy, type PlanOptions } from './key-rotation-plan';
import { openPrivateKey, UnsealError, sealPrivateKey, type KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';
import { generateSigningKey, loadPublishedKey } from './signing-key';
import { SigningKeyRepository, type KeyRotationSession } from './signing-key.repository';

export interface CreatedKey {
  readonly kid: string;
  readonly algorithm: SigningAlgorithm;
  readonly activatesAt: Date;
}

export interface RotationOutcome {
  /** The keys created by this check: of SIGNING_ALG first, then of the ID tokens' RS256. */
  readonly created: readonly CreatedKey[];
  readonly retired: readonly string[];
  readonly resealed: readonly string[];
}

/**
 * Carries out rotation checks: each runs under the database's rotation lock, reads the keys and the
 * database's time, and applies the rotation plan. Any instance may run one at any time; the lock and
 * the shared clock make them agree. Also re-seals keys that are plaintext or sealed under a previous
 * key-encryption key.
 */
@Injectable()
export class SigningKeyRotator {
  private readonly logger = new Logger(SigningKeyRotator.name);
  private readonly policy: KeyRotationPolicy;

  constructor(
    private readonly repository: SigningKeyRepository,
    @Inject(KEY_ENCRYPTION_KEYRING) private readonly keyring: KeyEncryptionKeyring,
    @Inject(signingKeysConfig.KEY) private readonly config: ConfigType<typeof signingKeysConfig>,
    private readonly audit: AuditSink,
  ) {
    const { rotationIntervalSeconds, propagationSeconds, retentionSeconds } = config.keyRotation;
    this.policy = { rotationIntervalSeconds, propagationSeconds, retentionSeconds };
    const warning = keyPropagationWarning(propagationSeconds);
    if (warning) this.logger.warn(warning);
  }

  /** The periodic (and boot-time) check: creates, schedules and retires keys when due. */
  rotateIfDue(): Promise<RotationOutcome> {
    return this.check({});
  }

  /**
   * An operator's forced rotation: new keys (SIGNING_ALG's first, and the ID tokens' RS256 when that
   * differs), published now, signing after the propagation time (or at once with `immediately`, for
   * tests and emergencies: verifiers that cached the JWKS may then reject their tokens until they refetch).
   */
  async rotateNow(options: { immediately?: boolean } = {}): Promise<readonly CreatedKey[]> {
    return (await this.check({ force: true, immediately: options.immediately })).created;
  }

  private check(options: PlanOptions): Promise<RotationOutcome> {
    return this.repository.inRotationLock(async (session) => {
      const resealed = await this.resealOutdated(session);
      const { keys, now } = await session.unretiredKeys();
      const plan = planRotations(keys, rotatedAlgorithms(this.config.signingAlgorithm), now, await this.policyFor(session), options);
      const created: CreatedKey[] = [];
      for (const { algorithm, activatesAt } of plan.create) {
        const key = await generateSigningKey(algorithm);
        await session.insert(key, sealPrivateKey(key.privateKeyPem, key.kid, this.keyring), now, activatesAt);
        created.push({ kid: key.kid, algorithm, activatesAt });
        this.logger.log(`Signing key ${key.kid} (${key.algorithm}) created: published now, signs from ${activatesAt.toISOString()}`);
        this.audit.emit({ name: 'signing_key.rotated', kid: key.kid, algorithm: key.algorithm, activatesAt: activatesAt.toISOString() });
      }
      for (const { kid, retiresAt } of plan.scheduleRetirement) {
        await session.scheduleRetirement(kid, retiresAt);
        this.logger.log(`Signing key ${kid} no longer signs; published until ${retiresAt.toISOString()}`);
      }
      await session.retire(plan.retire);
      for (const kid of plan.retire) this.logger.log(`Signing key ${kid} retired: no longer published`);
      return { created, retired: plan.retire, resealed };
    });
  }

  /**
   * docs/endpoints.md#jwks: a superseded key stays published until every token it signed has expired, so for
   * KEY_RETENTION_TIME or the longest access-token lifetime plus clock skew, whichever is longer;
   * plus CACHE_TTL_SECONDS, since instances see a new key that much late and sign with the old one.
   */
  private async policyFor(session: KeyRotationSession): Promise<KeyRotationPolicy> {
    const longestTokenSeconds = (await session.longestAccessTokenLifetime()) + CLOCK_SKEW_SECONDS;
    const retentionSeconds = Math.max(this.policy.retentionSeconds, longestTokenSeconds) + this.config.cacheTtlSeconds;
    return { ...this.policy, retentionSeconds };
  }

  /** Plaintext rows (from before encryption) and rows sealed under a previous KEK get sealed under the current one. */
  private async resealOutdated(session: KeyRotationSession): Promise<string[]> {
    const { keys } = await session.unretiredKeys();
    const resealed: string[] = [];
    for (const key of keys) {
      let opened;
      try {
        opened = openPrivateKey(key.privateKey, key.kid, this.keyring);
      } catch (error) {
        // Left as it is: another instance may hold the right key-encryption key (the store reports it).
        if (error instanceof UnsealError) continue;
        throw error;
      }
      if (opened.sealedUnderCurrent) continue;
      const publicKeyPem = loadPublishedKey(key, this.keyring).publicKey.export({ format: 'pem', type: 'spki' }).toString();
      await session.reseal(key.kid, key.privateKey, sealPrivateKey(opened.pem, key.kid, this.keyring), publicKeyPem);
      resealed.push(key.kid);
      this.logger.log(`Signing key ${key.kid} re-sealed under key-encryption key ${this.keyring.current.id}`);
    }
    return resealed;
  }
}
