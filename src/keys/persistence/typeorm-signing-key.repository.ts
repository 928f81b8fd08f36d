import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import type { SigningAlgorithm } from '../../config/app.config';
import type { StoredSigningKey } from '../signing-key';
import { SigningKeyRepository } from '../signing-key.repository';
import { SigningKeyEntity } from './signing-key.entity';

const KEY_CREATION_LOCK_ID = 7_340_112_234;

@Injectable()
export class TypeOrmSigningKeyRepository extends SigningKeyRepository {
  constructor(@InjectRepository(SigningKeyEntity) private readonly keys: Repository<SigningKeyEntity>) {
    super();
  }

  async findPublished(): Promise<StoredSigningKey[]> {
    const entities = await this.keys.find({ where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
    return entities.map(toStoredKey);
  }

  async createIfMissing(algorithm: SigningAlgorithm, create: () => Promise<StoredSigningKey>): Promise<void> {
    const key = await create();
    await this.keys.manager.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [KEY_CREATION_LOCK_ID]);
      if (await manager.existsBy(SigningKeyEntity, { algorithm, retiredAt: IsNull() })) return;
      await manager.insert(SigningKeyEntity, {
        kid: key.kid,
        algorithm: key.algorithm,
        privateKey: key.privateKeyPem,
        createdAt: key.createdAt,
        retiredAt: null,
      });
    });
  }
}

function toStoredKey(entity: SigningKeyEntity): StoredSigningKey {
  return {
    kid: entity.kid,
    algorithm: entity.algorithm as SigningAlgorithm,
    privateKeyPem: entity.privateKey,
    createdAt: entity.createdAt,
  };
}
