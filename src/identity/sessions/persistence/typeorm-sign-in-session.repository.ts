import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import type { EndedSignInSession, NewSignInSession, SignInSession } from '../sign-in-session';
import { SignInSessionRepository } from '../sign-in-session.repository';
import { managerIn } from '../../../platform/database/unit-of-work';
import { SignInSessionEntity } from './sign-in-session.entity';

const SESSION_COLUMNS = 'session_id, subject_id, auth_time, authentication_methods, expires_at';

interface SessionRow {
  readonly session_id: string;
  readonly subject_id: string;
  readonly auth_time: Date;
  readonly authentication_methods: string[];
  readonly expires_at: Date;
}

interface EndedRow {
  readonly session_id: string;
  readonly subject_id: string;
  readonly id_token_client_ids: string[];
}

// Raw SQL: DELETE … RETURNING, so that of concurrent endings of one session exactly one learns whom to tell (docs/signals.md).
const ENDED = 'RETURNING session_id, subject_id, id_token_client_ids';

@Injectable()
export class TypeOrmSignInSessionRepository extends SignInSessionRepository {
  constructor(@InjectRepository(SignInSessionEntity) private readonly sessions: Repository<SignInSessionEntity>) {
    super();
  }

  async add(session: NewSignInSession): Promise<void> {
    await this.sessions.insert({
      handleHash: session.handleHash,
      sessionId: session.sessionId,
      subjectId: session.subject,
      authTime: new Date(session.authTime * 1000),
      authenticationMethods: [...session.authenticationMethods],
      expiresAt: session.expiresAt,
    });
  }

  async findActive(handleHash: string, now: Date): Promise<SignInSession | undefined> {
    // Raw SQL: every authorization request reads its session; TypeORM's find builder cost more CPU than the statement.
    const [row] = (await this.sessions.query(`SELECT ${SESSION_COLUMNS} FROM sign_in_sessions WHERE handle_hash = $1 AND expires_at > $2`, [
      handleHash,
      now,
    ])) as SessionRow[];
    return row && fromRow(row);
  }

  async reauthenticate(handleHash: string, newHandleHash: string, authTime: number, methods: readonly string[], now: Date): Promise<SignInSession | undefined> {
    // Raw SQL: moves the session to its new handle and reads it back in one statement (UPDATE … RETURNING).
    const [rows] = (await this.sessions.query(
      `UPDATE sign_in_sessions SET handle_hash = $2, auth_time = $3, authentication_methods = $4
       WHERE handle_hash = $1 AND expires_at > $5
       RETURNING session_id, subject_id, expires_at`,
      [handleHash, newHandleHash, new Date(authTime * 1000), methods, now],
    )) as [{ session_id: string; subject_id: string; expires_at: Date }[], number];
    const row = rows[0];
    return row && { sessionId: row.session_id, subject: row.subject_id, authTime, authenticationMethods: methods, expiresAt: row.expires_at };
  }

  async delete(handleHash: string): Promise<EndedSignInSession | undefined> {
    return (await this.ended(`DELETE FROM sign_in_sessions WHERE handle_hash = $1 ${ENDED}`, [handleHash]))[0];
  }

  async deleteBySessionId(sessionId: string): Promise<EndedSignInSession | undefined> {
    return (await this.ended(`DELETE FROM sign_in_sessions WHERE session_id = $1 ${ENDED}`, [sessionId]))[0];
  }

  deleteBySubject(subject: string): Promise<EndedSignInSession[]> {
    return this.ended(`DELETE FROM sign_in_sessions WHERE subject_id = $1 ${ENDED}`, [subject]);
  }

  async isActive(sessionId: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.sessions.query('SELECT 1 FROM sign_in_sessions WHERE session_id = $1 AND expires_at > $2', [sessionId, now]);
    return rows.length > 0;
  }

  async findActiveBySubject(subject: string, now: Date): Promise<(SignInSession & EndedSignInSession)[]> {
    const rows = (await this.sessions.query(
      `SELECT ${SESSION_COLUMNS}, id_token_client_ids FROM sign_in_sessions WHERE subject_id = $1 AND expires_at > $2 ORDER BY created_at LIMIT 1000`,
      [subject, now],
    )) as (SessionRow & { id_token_client_ids: string[] })[];
    return rows.map((row) => ({ ...fromRow(row), idTokenClientIds: row.id_token_client_ids }));
  }

  async addIdTokenClient(sessionId: string, clientId: string): Promise<void> {
    // Raw SQL: appends to the array column only when the client is not in it yet, in one statement.
    await this.sessions.query(
      'UPDATE sign_in_sessions SET id_token_client_ids = array_append(id_token_client_ids, $2) WHERE session_id = $1 AND NOT ($2 = ANY (id_token_client_ids))',
      [sessionId, clientId],
    );
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const { affected } = await this.sessions.delete({ expiresAt: LessThan(cutoff) });
    return affected ?? 0;
  }

  /** In the caller's unit of work, if any: the signals telling of the ending are written with it. */
  private async ended(sql: string, parameters: unknown[]): Promise<EndedSignInSession[]> {
    const [rows] = (await managerIn(this.sessions.manager).query(sql, parameters)) as [EndedRow[], number];
    return rows.map((row) => ({ sessionId: row.session_id, subject: row.subject_id, idTokenClientIds: row.id_token_client_ids }));
  }
}

function fromRow(row: SessionRow): SignInSession {
  return {
    sessionId: row.session_id,
    subject: row.subject_id,
    authTime: Math.floor(row.auth_time.getTime() / 1000),
    authenticationMethods: row.authentication_methods,
    expiresAt: row.expires_at,
  };
}
