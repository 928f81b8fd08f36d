import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrowserCookies } from './browser-cookies';
import { SignInSessionEntity } from './persistence/sign-in-session.entity';
import { TypeOrmSignInSessionRepository } from './persistence/typeorm-sign-in-session.repository';
import { SignInSessionRepository } from './sign-in-session.repository';
import { SignInSessionService } from './sign-in-session.service';

@Module({
  imports: [TypeOrmModule.forFeature([SignInSessionEntity])],
  providers: [{ provide: SignInSessionRepository, useClass: TypeOrmSignInSessionRepository }, SignInSessionService, BrowserCookies],
  exports: [SignInSessionService, BrowserCookies],
})
export class SessionsModule {}
