import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NewSignInSession, SignInSession } from '../sign-in-session';
import { SignInSessionRepository } from '../sign-in-session.repository';

interface SessionRow {
  readonly session_id: string;
  readonly subject_id: string;
  readonly auth_time: Date;
  readonly authentication_methods: string[];
  readonly expires_at: Date;
}

@Injectable()
export class TypeOrmSignInSessionRepository extends SignInSessionRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async add(session: NewSignInSession): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sign_in_sessions (handle_hash, session_id, subject_id, auth_time, authentication_methods, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [session.handleHash, session.sessionId, session.subject, new Date(session.authTime * 1000), session.authenticationMethods, session.expiresAt],
    );
  }

  async findActive(handleHash: string, now: Date): Promise<SignInSession | undefined> {
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT session_id, subject_id, auth_time, authentication_methods, expires_at
       FROM sign_in_sessions WHERE handle_hash = $1 AND expires_at > $2`,
      [handleHash, now],
    );
    const row = rows[0];
    return (
      row && {
        sessionId: row.session_id,
        subject: row.subject_id,
        authTime: Math.floor(row.auth_time.getTime() / 1000),
        authenticationMethods: row.authentication_methods,
        expiresAt: row.expires_at,
      }
    );
  }

  async delete(handleHash: string): Promise<void> {
    await this.dataSource.query('DELETE FROM sign_in_sessions WHERE handle_hash = $1', [handleHash]);
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const [, affected] = (await this.dataSource.query('DELETE FROM sign_in_sessions WHERE expires_at < $1', [cutoff])) as [unknown, number];
    return affected ?? 0;
  }
}
