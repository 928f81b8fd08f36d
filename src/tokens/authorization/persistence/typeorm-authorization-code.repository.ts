import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuthorizationCode, IssuedFromCode } from '../authorization-code';
import { AuthorizationCodeRepository } from '../authorization-code.repository';

interface CodeRow {
  readonly code_hash: string;
  readonly client_id: string;
  readonly redirect_uri: string;
  readonly redirect_uri_sent: boolean;
  readonly code_challenge: string;
  readonly nonce: string | null;
  readonly scopes: string[];
  readonly resources: string[];
  readonly subject_id: string;
  readonly session_id: string;
  readonly auth_time: Date;
  readonly authentication_methods: string[];
  readonly expires_at: Date;
  readonly consumed_at: Date | null;
}

@Injectable()
export class TypeOrmAuthorizationCodeRepository extends AuthorizationCodeRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async add(code: AuthorizationCode): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO authorization_codes (code_hash, client_id, redirect_uri, code_challenge, nonce, scopes, subject_id,
         session_id, auth_time, authentication_methods, expires_at, redirect_uri_sent, resources)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        code.codeHash,
        code.clientId,
        code.redirectUri,
        code.codeChallenge,
        code.nonce ?? null,
        code.scopes,
        code.subject,
        code.sessionId,
        new Date(code.authTime * 1000),
        code.authenticationMethods,
        code.expiresAt,
        code.redirectUriSent,
        code.resources,
      ],
    );
  }

  async find(codeHash: string): Promise<{ code: AuthorizationCode; used: boolean } | undefined> {
    const rows: CodeRow[] = await this.dataSource.query('SELECT * FROM authorization_codes WHERE code_hash = $1', [codeHash]);
    return rows[0] && { code: toCode(rows[0]), used: rows[0].consumed_at !== null };
  }

  async consume(codeHash: string, at: Date): Promise<{ consumed: true } | { consumed: false; issued?: IssuedFromCode }> {
    // One conditional UPDATE: of concurrent presentations of one code, exactly one sees a row.
    const [consumed] = (await this.dataSource.query(
      'UPDATE authorization_codes SET consumed_at = $2 WHERE code_hash = $1 AND consumed_at IS NULL RETURNING code_hash',
      [codeHash, at],
    )) as [unknown[], number];
    if (consumed.length === 1) return { consumed: true };
    const [replayed] = (await this.dataSource.query(
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
    const [rows] = (await this.dataSource.query(
      `UPDATE authorization_codes SET access_token_jti = $2, access_token_expires_at = $3 WHERE code_hash = $1
       RETURNING replayed_at`,
      [codeHash, issued.jwtId, issued.expiresAt],
    )) as [{ replayed_at: Date | null }[], number];
    return rows[0]?.replayed_at === null;
  }

  async deleteUnredeemedOfSession(sessionId: string): Promise<number> {
    // A redeemed code stays: its replay must still revoke what it issued.
    const [, affected] = (await this.dataSource.query('DELETE FROM authorization_codes WHERE session_id = $1 AND consumed_at IS NULL', [sessionId])) as [
      unknown,
      number,
    ];
    return affected ?? 0;
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const [, affected] = (await this.dataSource.query('DELETE FROM authorization_codes WHERE expires_at < $1', [cutoff])) as [unknown, number];
    return affected ?? 0;
  }
}

function toCode(row: CodeRow): AuthorizationCode {
  return {
    codeHash: row.code_hash,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    redirectUriSent: row.redirect_uri_sent,
    codeChallenge: row.code_challenge,
    nonce: row.nonce ?? undefined,
    scopes: row.scopes,
    resources: row.resources,
    subject: row.subject_id,
    sessionId: row.session_id,
    authTime: Math.floor(row.auth_time.getTime() / 1000),
    authenticationMethods: row.authentication_methods,
    expiresAt: row.expires_at,
  };
}
