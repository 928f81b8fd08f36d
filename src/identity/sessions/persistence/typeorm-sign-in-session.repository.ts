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

  async delete(handleHash: string): Promise<void> {
    await this.sessions.delete({ handleHash });
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const { affected } = await this.sessions.delete({ expiresAt: LessThan(cutoff) });
    return affected ?? 0;
  }
}
