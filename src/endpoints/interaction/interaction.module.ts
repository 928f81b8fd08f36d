import { Module } from '@nestjs/common';
import { AuditModule } from '../../platform/audit/audit.module';
import { AuthorizeModule } from '../../tokens/authorization/authorize.module';
import { ClientsModule } from '../../identity/clients/clients.module';
import { DeviceAuthorizationModule } from '../../tokens/device-authorization/device-authorization.module';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { IdTokenModule } from '../../tokens/id-token/id-token.module';
import { KeysModule } from '../../tokens/keys/keys.module';
import { SessionsModule } from '../../identity/sessions/sessions.module';
import { SignInModule } from '../../identity/sign-in/sign-in.module';
import { SignalsModule } from '../../identity/signals/signals.module';
import { UsersModule } from '../../identity/users/users.module';
import { CsrfTokens } from './csrf';
import { DeviceVerificationController } from './device-verification.controller';
import { DeviceVerificationService } from './device-verification.service';
import { EndSessionService } from './end-session.service';
import { InteractionController } from './interaction.controller';
import { InteractionService } from './interaction.service';
import { PageRenderer } from './page.renderer';
import { PageTemplates } from './page-templates';
import { PasswordSignIn } from './password-sign-in';
import { StylesheetSource } from './stylesheet.source';

/** Login, consent, logout-confirmation, signed-out and device verification pages, and the endpoints that show them. */
@Module({
  imports: [
    AuthorizeModule,
    ClientsModule,
    IdTokenModule,
    KeysModule,
    SessionsModule,
    SignalsModule,
    UsersModule,
    AuditModule,
    SignInModule,
    DeviceAuthorizationModule,
    RateLimitModule,
  ],
  controllers: [InteractionController, DeviceVerificationController],
  providers: [PageTemplates, InteractionService, DeviceVerificationService, EndSessionService, CsrfTokens, PageRenderer, PasswordSignIn, StylesheetSource],
})
export class InteractionModule {}
