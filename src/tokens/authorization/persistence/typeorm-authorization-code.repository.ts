import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import type { AuthorizationCode, IssuedFromCode } from '../authorization-code';
import { AuthorizationCodeRepository } from '../authorization-code.repository';
import { AuthorizationCodeEntity } from './authorization-code.entity';

@Injectable()
export class TypeOrmAuthorizationCodeRepository extends AuthorizationCodeRepository {
  constructor(@InjectRepository(AuthorizationCodeEntity) private readonly codes: Repository<AuthorizationCodeEntity>) {
    super();
  }

  async add(code: AuthorizationCode): Promise<void> {
    // Raw SQL on the authorization endpoint's hot path: TypeORM's insert builder cost more CPU than the statement (bench/README.md).
    await this.codes.query(
      `INSERT INTO authorization_codes (code_hash, client_id, redirect_uri, redirect_uri_sent, code_challenge, nonce, scopes, resources,
         dpop_jkt, subject_id, session_id, auth_time, authentication_methods, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        code.codeHash,
        code.clientId,
        code.redirectUri,
        code.redirectUriSent,
        code.codeChallenge,
        code.nonce ?? null,
        code.scopes,
        code.resources,
        code.dpopJkt ?? null,
        code.subject,
        code.sessionId,
        new Date(code.authTime * 1000),
        code.authenticationMethods,
        code.expiresAt,
      ],
    );
  }

  async find(codeHash: string): Promise<{ code: AuthorizationCode; used: boolean } | undefined> {
    const entity = await this.codes.findOneBy({ codeHash });
    return entity ? { code: toCode(entity), used: entity.consumedAt !== null } : undefined;
  }

  async consume(codeHash: string, at: Date): Promise<{ consumed: true } | { consumed: false; issued?: IssuedFromCode }> {
    // Raw SQL: one conditional UPDATE … RETURNING; of concurrent presentations of one code, exactly one sees a row.
    const [consumed] = (await this.codes.query(
      'UPDATE authorization_codes SET consumed_at = $2 WHERE code_hash = $1 AND consumed_at IS NULL RETURNING code_hash',
      [codeHash, at],
    )) as [unknown[], number];
    if (consumed.length === 1) return { consumed: true };
    // Raw SQL: marks the replay and reads what the code issued in one statement (UPDATE … RETURNING).
    const [replayed] = (await this.codes.query(
      `UPDATE authorization_codes SET replayed_at = coalesce(replayed_at, $2) WHERE code_hash = $1
       RETURNING access_token_jti, access_token_expires_at`,
      [codeHash, at],
    )) as [{ access_token_jti: string | null; access_token_expires_at: Date | null }[], number];
    const row = replayed[0];
    return row?.access_token_jti && row.access_token_expires_at
      ? { consumed: false, issued: { jwtId: row.access_token_jti, expiresAt: row.access_token_expires_at } }
      : { consumed: false };
  }

  async recordIssued(codeHash: string, issued: IssuedFromCode): Promise<boolean> {
    // Raw SQL: records the token and reads whether a replay came first in one statement (UPDATE … RETURNING).
    const [rows] = (await this.codes.query(
      `UPDATE authorization_codes SET access_token_jti = $2, access_token_expires_at = $3 WHERE code_hash = $1
       RETURNING replayed_at`,
      [codeHash, issued.jwtId, issued.expiresAt],
    )) as [{ replayed_at: Date | null }[], number];
    return rows[0]?.replayed_at === null;
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const { affected } = await this.codes.delete({ expiresAt: LessThan(cutoff) });
    return affected ?? 0;
  }
}

function toCode(entity: AuthorizationCodeEntity): AuthorizationCode {
  return {
    codeHash: entity.codeHash,
    clientId: entity.clientId,
    redirectUri: entity.redirectUri,
    redirectUriSent: entity.redirectUriSent,
    codeChallenge: entity.codeChallenge,
    nonce: entity.nonce ?? undefined,
    scopes: entity.scopes,
    resources: entity.resources,
    dpopJkt: entity.dpopJkt ?? undefined,
    subject: entity.subjectId,
    sessionId: entity.sessionId,
    authTime: Math.floor(entity.authTime.getTime() / 1000),
    authenticationMethods: entity.authenticationMethods,
    expiresAt: entity.expiresAt,
  };
}
