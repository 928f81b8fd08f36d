import { Module } from '@nestjs/common';
import { AuditModule } from '../../platform/audit/audit.module';
import { DatabaseMonitoringModule } from '../../platform/database/database-monitoring.module';
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
import { PasskeysModule } from '../../identity/passkeys/passkeys.module';
import { PasskeyScriptSource } from './passkey-script.source';
import { PasskeySignIn } from './passkey-sign-in';
import { AccountController } from './account.controller';
import { AccountService } from './account.service';
import { CsrfTokens } from './csrf';
import { DeviceVerificationController } from './device-verification.controller';
import { DeviceVerificationService } from './device-verification.service';
import { EndSessionService } from './end-session.service';
import { InteractionController } from './interaction.controller';
import { PageRenderer } from './page.renderer';
import { PageTemplates } from './page-templates';
import { PasswordSignIn } from './password-sign-in';
import { SignedInSessions } from './signed-in-sessions';
import { StylesheetSource } from './stylesheet.source';

/**
 * The browser pages (docs/browser-sign-in.md): their rendering, CSRF tokens and sign-in pieces, shared with the
 * authorization endpoint (src/endpoints/authorize/); and the logout, device verification and account endpoints.
 */
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
    DatabaseMonitoringModule,
    PasskeysModule,
  ],
  controllers: [InteractionController, DeviceVerificationController, AccountController],
  providers: [
    PageTemplates,
    DeviceVerificationService,
    EndSessionService,
    CsrfTokens,
    PageRenderer,
    PasswordSignIn,
    StylesheetSource,
    PasskeyScriptSource,
    PasskeySignIn,
    SignedInSessions,
    AccountService,
  ],
  // What the authorization endpoint's pages need (src/endpoints/authorize/), PageExceptionFilter's dependencies included.
  exports: [PageRenderer, CsrfTokens, PasswordSignIn, PasskeySignIn, SignedInSessions, DatabaseMonitoringModule],
})
export class InteractionModule {}
