import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, Not, QueryResult, Repository } from 'typeorm';
import type { CompanionAccessToken, NewRefreshToken, RefreshToken, RotationOutcome } from '../refresh-token';
import { RefreshTokenRepository } from '../refresh-token.repository';
import { RefreshTokenEntity } from './refresh-token.entity';

// The first key of the two-key advisory locks that serialize rotation and revocation per family.
const FAMILY_LOCK_SPACE = 73_401_122;

interface CompanionRow {
  readonly access_token_jti: string | null;
  readonly access_token_expires_at: Date | null;
}

@Injectable()
export class TypeOrmRefreshTokenRepository extends RefreshTokenRepository {
  constructor(@InjectRepository(RefreshTokenEntity) private readonly tokens: Repository<RefreshTokenEntity>) {
    super();
  }

  async findByHash(tokenHash: string): Promise<RefreshToken | undefined> {
    const entity = await this.tokens.findOneBy({ tokenHash });
    return entity ? toRefreshToken(entity) : undefined;
  }

  async add(token: NewRefreshToken): Promise<void> {
    await this.tokens.insert(toEntity(token));
  }

  async addToFamily(token: NewRefreshToken): Promise<boolean> {
    return this.tokens.manager.transaction(async (manager) => {
      await lockFamily(manager, token.familyId);
      if (await manager.existsBy(RefreshTokenEntity, { familyId: token.familyId, revokedAt: Not(IsNull()) })) return false;
      await manager.insert(RefreshTokenEntity, toEntity(token));
      return true;
    });
  }

  async rotate(consumedHash: string, successor: NewRefreshToken, at: Date): Promise<RotationOutcome> {
    return this.tokens.manager.transaction(async (manager) => {
      await lockFamily(manager, successor.familyId);
      if (await manager.existsBy(RefreshTokenEntity, { familyId: successor.familyId, revokedAt: Not(IsNull()) })) return 'revoked';
      // One conditional UPDATE: of concurrent presentations of one token, exactly one sees a row.
      const consumed = await execute(
        manager,
        'UPDATE refresh_tokens SET consumed_at = $2 WHERE token_hash = $1 AND consumed_at IS NULL AND revoked_at IS NULL',
        [consumedHash, at],
      );
      if (consumed.affected !== 1) return 'consumed';
      await manager.insert(RefreshTokenEntity, toEntity(successor));
      return 'rotated';
    });
  }

  async revokeFamily(familyId: string, at: Date): Promise<CompanionAccessToken[]> {
    const rows = await this.tokens.manager.transaction(async (manager) => {
      await lockFamily(manager, familyId);
      // Raw SQL: UPDATE … RETURNING revokes the family and names its access tokens in one statement.
      const result = await execute(
        manager,
        `UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL
         RETURNING access_token_jti, access_token_expires_at`,
        [familyId, at],
      );
      return result.records as CompanionRow[];
    });
    return rows.flatMap(({ access_token_jti: jwtId, access_token_expires_at: expiresAt }) =>
      jwtId !== null && expiresAt !== null && expiresAt.getTime() > at.getTime() ? [{ jwtId, expiresAt: Math.floor(expiresAt.getTime() / 1000) }] : [],
    );
  }

  async findFamilyIdByAccessToken(jwtId: string): Promise<string | undefined> {
    return (await this.tokens.findOne({ where: { accessTokenJti: jwtId }, select: { familyId: true } }))?.familyId;
  }

  async deleteExpiredBefore(cutoff: Date, limit: number): Promise<number> {
    // Raw SQL: PostgreSQL has no DELETE … LIMIT; a bounded batch keeps each statement short.
    const result = await execute(
      this.tokens.manager,
      `DELETE FROM refresh_tokens WHERE token_hash IN
         (SELECT token_hash FROM refresh_tokens WHERE expires_at < $1 LIMIT $2)`,
      [cutoff, limit],
    );
    return result.affected ?? 0;
  }
}

/**
 * Held until the transaction ends. Each statement after it reads a fresh snapshot (READ COMMITTED),
 * so it sees everything a rotation or revocation of the same family committed before.
 */
async function lockFamily(manager: EntityManager, familyId: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [FAMILY_LOCK_SPACE, familyId]);
}

/** Runs a statement and returns rows and affected count alike (UPDATE … RETURNING, DELETE). */
async function execute(manager: EntityManager, sql: string, parameters: unknown[]): Promise<QueryResult> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    return await runner.query(sql, parameters, true);
  } finally {
    if (runner !== manager.queryRunner) await runner.release();
  }
}

function toEntity(token: NewRefreshToken): Partial<RefreshTokenEntity> {
  return {
    tokenHash: token.tokenHash,
    familyId: token.familyId,
    subjectId: token.subject,
    clientId: token.clientId,
    scopes: [...token.scopes],
    resources: [...token.resources],
    claims: token.claims === undefined ? null : { ...token.claims },
    audience: token.audience === undefined ? null : [...token.audience],
    authTime: new Date(token.authTime * 1000),
    authenticationMethods: [...token.authenticationMethods],
    sessionId: token.sessionId ?? null,
    dpopJkt: token.confirmation?.jkt ?? null,
    accessTokenJti: token.accessToken.jwtId,
    accessTokenExpiresAt: new Date(token.accessToken.expiresAt * 1000),
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
  };
}

function toRefreshToken(entity: RefreshTokenEntity): RefreshToken {
  return {
    tokenHash: entity.tokenHash,
    familyId: entity.familyId,
    subject: entity.subjectId,
    clientId: entity.clientId,
    scopes: entity.scopes,
    resources: entity.resources,
    ...(isClaims(entity.claims) ? { claims: entity.claims } : {}),
    ...(entity.audience === null ? {} : { audience: entity.audience }),
    authTime: Math.floor(entity.authTime.getTime() / 1000),
    authenticationMethods: entity.authenticationMethods,
    sessionId: entity.sessionId ?? undefined,
    ...(entity.dpopJkt === null ? {} : { confirmation: { jkt: entity.dpopJkt } }),
    createdAt: entity.createdAt,
    expiresAt: entity.expiresAt,
    consumedAt: entity.consumedAt ?? undefined,
    revokedAt: entity.revokedAt ?? undefined,
  };
}

function isClaims(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
