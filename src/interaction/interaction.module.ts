import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthorizeModule } from '../authorize/authorize.module';
import { ClientsModule } from '../clients/clients.module';
import { IdTokenModule } from '../id-token/id-token.module';
import { KeysModule } from '../keys/keys.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { UsersModule } from '../users/users.module';
import { CsrfTokens } from './csrf';
import { EndSessionService } from './end-session.service';
import { InteractionController } from './interaction.controller';
import { InteractionService } from './interaction.service';
import { PageRenderer } from './page.renderer';
import { PasswordSignIn } from './password-sign-in';
import { StylesheetSource } from './stylesheet.source';

/** Login, consent, logout-confirmation and signed-out pages, and the endpoints that show them. */
@Module({
  imports: [AuthorizeModule, ClientsModule, IdTokenModule, KeysModule, SessionsModule, UsersModule, AuditModule, SignInModule],
  controllers: [InteractionController],
  providers: [InteractionService, EndSessionService, CsrfTokens, PageRenderer, PasswordSignIn, StylesheetSource],
})
export class InteractionModule {}
