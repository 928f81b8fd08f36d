import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { SigningAlgorithm } from '../../../platform/config/app.config';
import type { GeneratedSigningKey, StoredSigningKey } from '../signing-key';
import { SigningKeyRepository, type KeyRotationSession, type KeySnapshot } from '../signing-key.repository';

// An arbitrary constant naming Tollgate's key-rotation lock among the database's advisory locks.
const KEY_ROTATION_LOCK_ID = 7_340_112_234;

const COLUMNS = 'kid, algorithm, private_key, public_key, created_at, activates_at, retires_at';

interface SigningKeyRow {
  kid: string;
  algorithm: string;
  private_key: string;
  public_key: string | null;
  created_at: Date;
  activates_at: Date;
  retires_at: Date | null;
}

@Injectable()
export class TypeOrmSigningKeyRepository extends SigningKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async findPublished(): Promise<KeySnapshot> {
    const rows: SigningKeyRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM signing_keys
       WHERE retired_at IS NULL AND (retires_at IS NULL OR retires_at > now())
       ORDER BY activates_at DESC, created_at DESC`,
    );
    return { keys: rows.map(toStoredKey), now: await databaseNow(this.dataSource.manager) };
  }

  inRotationLock<T>(work: (session: KeyRotationSession) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      // Transaction-scoped: released at commit or rollback, even if this instance dies.
      await manager.query('SELECT pg_advisory_xact_lock($1)', [KEY_ROTATION_LOCK_ID]);
      return work(new TypeOrmKeyRotationSession(manager));
    });
  }
}

/** Inside the locked transaction; `now()` is the transaction's start, the same for every statement. */
class TypeOrmKeyRotationSession implements KeyRotationSession {
  constructor(private readonly manager: EntityManager) {}

  async unretiredKeys(): Promise<KeySnapshot> {
    const rows: SigningKeyRow[] = await this.manager.query(`SELECT ${COLUMNS} FROM signing_keys WHERE retired_at IS NULL`);
    return { keys: rows.map(toStoredKey), now: await databaseNow(this.manager) };
  }

  async longestAccessTokenLifetime(): Promise<number> {
    const [row] = await this.manager.query('SELECT coalesce(max(access_token_lifetime), 0) AS seconds FROM clients');
    return Number(row.seconds);
  }

  async insert(key: GeneratedSigningKey, sealedPrivateKey: string, createdAt: Date, activatesAt: Date): Promise<void> {
    await this.manager.query(
      `INSERT INTO signing_keys (kid, algorithm, private_key, public_key, created_at, activates_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [key.kid, key.algorithm, sealedPrivateKey, key.publicKeyPem, createdAt, activatesAt],
    );
  }

  async scheduleRetirement(kid: string, retiresAt: Date): Promise<void> {
    await this.manager.query('UPDATE signing_keys SET retires_at = $2 WHERE kid = $1 AND retires_at IS NULL', [kid, retiresAt]);
  }

  async retire(kids: readonly string[]): Promise<void> {
    if (kids.length === 0) return;
    await this.manager.query('UPDATE signing_keys SET retired_at = now() WHERE kid = ANY($1) AND retired_at IS NULL', [kids]);
  }

  async reseal(kid: string, previousPrivateKey: string, sealedPrivateKey: string, publicKeyPem: string): Promise<void> {
    await this.manager.query('UPDATE signing_keys SET private_key = $3, public_key = coalesce(public_key, $4) WHERE kid = $1 AND private_key = $2', [
      kid,
      previousPrivateKey,
      sealedPrivateKey,
      publicKeyPem,
    ]);
  }
}

async function databaseNow(manager: EntityManager): Promise<Date> {
  const [{ now }]: { now: Date }[] = await manager.query('SELECT now() AS now');
  return now;
}

function toStoredKey(row: SigningKeyRow): StoredSigningKey {
  return {
    kid: row.kid,
    algorithm: row.algorithm as SigningAlgorithm,
    privateKey: row.private_key,
    publicKeyPem: row.public_key ?? undefined,
    createdAt: row.created_at,
    activatesAt: row.activates_at,
    retiresAt: row.retires_at ?? undefined,
  };
}
