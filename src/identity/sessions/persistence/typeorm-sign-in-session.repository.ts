import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Repository } from 'typeorm';
import type { NewSignInSession, SignInSession } from '../sign-in-session';
import { SignInSessionRepository } from '../sign-in-session.repository';
import { SignInSessionEntity } from './sign-in-session.entity';

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
    const entity = await this.sessions.findOneBy({ handleHash, expiresAt: MoreThan(now) });
    if (!entity) return undefined;
    return {
      sessionId: entity.sessionId,
      subject: entity.subjectId,
      authTime: Math.floor(entity.authTime.getTime() / 1000),
      authenticationMethods: entity.authenticationMethods,
      expiresAt: entity.expiresAt,
    };
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

  async delete(handleHash: string): Promise<void> {
    await this.sessions.delete({ handleHash });
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const { affected } = await this.sessions.delete({ expiresAt: LessThan(cutoff) });
    return affected ?? 0;
  }
}
