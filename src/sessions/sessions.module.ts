import { Module } from '@nestjs/common';
import { TypeOrmSignInSessionRepository } from './persistence/typeorm-sign-in-session.repository';
import { SignInSessionRepository } from './sign-in-session.repository';
import { SignInSessionService } from './sign-in-session.service';

@Module({
  providers: [{ provide: SignInSessionRepository, useClass: TypeOrmSignInSessionRepository }, SignInSessionService],
  exports: [SignInSessionService],
})
export class SessionsModule {}
