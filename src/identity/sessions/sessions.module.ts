import { Module } from '@nestjs/common';
import { BrowserCookies } from './browser-cookies';
import { TypeOrmSignInSessionRepository } from './persistence/typeorm-sign-in-session.repository';
import { SignInSessionRepository } from './sign-in-session.repository';
import { SignInSessionService } from './sign-in-session.service';

@Module({
  providers: [{ provide: SignInSessionRepository, useClass: TypeOrmSignInSessionRepository }, SignInSessionService, BrowserCookies],
  exports: [SignInSessionService, BrowserCookies],
})
export class SessionsModule {}
