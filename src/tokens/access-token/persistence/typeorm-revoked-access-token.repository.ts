import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { RevokedAccessToken } from '../revoked-access-token';
import { RevokedAccessTokenRepository, type RevocationsRead } from '../revoked-access-token.repository';
import { RevokedAccessTokenEntity } from './revoked-access-token.entity';

interface RevocationRow {
  readonly read_at: Date;
  readonly jti: string | null;
  readonly expires_at: Date | null;
}

@Injectable()
export class TypeOrmRevokedAccessTokenRepository extends RevokedAccessTokenRepository {
  constructor(@InjectRepository(RevokedAccessTokenEntity) private readonly revoked: Repository<RevokedAccessTokenEntity>) {
    super();
  }

  async add(tokens: readonly RevokedAccessToken[]): Promise<void> {
    if (tokens.length === 0) return;
    // Raw SQL: one INSERT of every token through unnest(), ON CONFLICT for a token revoked twice.
    await this.revoked.query(
      `INSERT INTO revoked_access_tokens (jti, expires_at)
       SELECT * FROM unnest($1::text[], $2::timestamptz[]) ON CONFLICT (jti) DO NOTHING`,
      [tokens.map((token) => token.jwtId), tokens.map((token) => new Date(token.expiresAt * 1000))],
    );
  }

  async findRevokedSince(since: Date | undefined, liveAfter: Date): Promise<RevocationsRead> {
    // The outer row carries the database's clock even when nothing was revoked: one round trip.
    const rows: RevocationRow[] = await this.revoked.query(
      `SELECT clock.now AS read_at, r.jti, r.expires_at
         FROM (SELECT now() AS now) clock
         LEFT JOIN revoked_access_tokens r ON r.revoked_at >= $1 AND r.expires_at > $2`,
      [since ?? '-infinity', liveAfter],
    );
    const tokens = rows.flatMap((row) =>
      row.jti === null || row.expires_at === null ? [] : [{ jwtId: row.jti, expiresAt: Math.floor(row.expires_at.getTime() / 1000) }],
    );
    return { tokens, readAt: rows[0].read_at };
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const result = await this.revoked.createQueryBuilder().delete().where('expires_at < :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }
}
