import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Raw, Repository, type EntityManager } from 'typeorm';
import type { SigningAlgorithm } from '../../../platform/config/app.config';
import type { GeneratedSigningKey, StoredSigningKey } from '../signing-key';
import { SigningKeyRepository, type KeyRotationSession, type KeySnapshot } from '../signing-key.repository';
import { SigningKeyEntity } from './signing-key.entity';

// An arbitrary constant naming Tollgate's key-rotation lock among the database's advisory locks.
const KEY_ROTATION_LOCK_ID = 7_340_112_234;

@Injectable()
export class TypeOrmSigningKeyRepository extends SigningKeyRepository {
  constructor(@InjectRepository(SigningKeyEntity) private readonly keys: Repository<SigningKeyEntity>) {
    super();
  }

  async findPublished(): Promise<KeySnapshot> {
    // Compared with the database's clock, the one every instance shares.
    const unretired = { retiredAt: IsNull() };
    const entities = await this.keys.find({
      where: [
        { ...unretired, retiresAt: IsNull() },
        { ...unretired, retiresAt: Raw((column) => `${column} > now()`) },
      ],
      order: { activatesAt: 'DESC', createdAt: 'DESC' },
    });
    return { keys: entities.map(toStoredKey), now: await databaseNow(this.keys.manager) };
  }

  inRotationLock<T>(work: (session: KeyRotationSession) => Promise<T>): Promise<T> {
    return this.keys.manager.transaction(async (manager) => {
      // Raw SQL: a PostgreSQL advisory lock, transaction-scoped: released at commit or rollback, even if this instance dies.
      await manager.query('SELECT pg_advisory_xact_lock($1)', [KEY_ROTATION_LOCK_ID]);
      return work(new TypeOrmKeyRotationSession(manager));
    });
  }
}

/** Inside the locked transaction (its manager only); `now()` is the transaction's start, the same for every statement. */
class TypeOrmKeyRotationSession implements KeyRotationSession {
  private readonly keys: Repository<SigningKeyEntity>;

  constructor(private readonly manager: EntityManager) {
    this.keys = manager.getRepository(SigningKeyEntity);
  }

  async unretiredKeys(): Promise<KeySnapshot> {
    const entities = await this.keys.findBy({ retiredAt: IsNull() });
    return { keys: entities.map(toStoredKey), now: await databaseNow(this.manager) };
  }

  async longestAccessTokenLifetime(): Promise<number> {
    // Raw SQL: one aggregate over the clients table, which ClientsModule owns (its entity is not this module's).
    const [row] = await this.manager.query('SELECT coalesce(max(access_token_lifetime), 0) AS seconds FROM clients');
    return Number(row.seconds);
  }

  async insert(key: GeneratedSigningKey, sealedPrivateKey: string, createdAt: Date, activatesAt: Date): Promise<void> {
    await this.keys.insert({ kid: key.kid, algorithm: key.algorithm, privateKey: sealedPrivateKey, publicKey: key.publicKeyPem, createdAt, activatesAt });
  }

  async scheduleRetirement(kid: string, retiresAt: Date): Promise<void> {
    await this.keys.update({ kid, retiresAt: IsNull() }, { retiresAt });
  }

  async retire(kids: readonly string[]): Promise<void> {
    if (kids.length === 0) return;
    await this.keys.update({ kid: In([...kids]), retiredAt: IsNull() }, { retiredAt: () => 'now()' });
  }

  async reseal(kid: string, previousPrivateKey: string, sealedPrivateKey: string, publicKeyPem: string): Promise<void> {
    // Only if no other rotation resealed it first; a key from before rotation gets its public key.
    await this.keys
      .createQueryBuilder()
      .update()
      .set({ privateKey: sealedPrivateKey, publicKey: () => 'coalesce(public_key, :publicKeyPem)' })
      .where({ kid, privateKey: previousPrivateKey })
      .setParameters({ publicKeyPem })
      .execute();
  }
}

async function databaseNow(manager: EntityManager): Promise<Date> {
  // Raw SQL: the database's clock, which every instance shares.
  const [{ now }]: { now: Date }[] = await manager.query('SELECT now() AS now');
  return now;
}

function toStoredKey(entity: SigningKeyEntity): StoredSigningKey {
  return {
    kid: entity.kid,
    algorithm: entity.algorithm as SigningAlgorithm,
    privateKey: entity.privateKey,
    publicKeyPem: entity.publicKey ?? undefined,
    createdAt: entity.createdAt,
    activatesAt: entity.activatesAt,
    retiresAt: entity.retiresAt ?? undefined,
  };
}
