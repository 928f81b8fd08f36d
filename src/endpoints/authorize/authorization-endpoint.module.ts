import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit/audit.module';
import { ClientsModule } from '../../identity/clients/clients.module';
import { PasskeysModule } from '../../identity/passkeys/passkeys.module';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { SessionsModule } from '../../identity/sessions/sessions.module';
import { SignInModule } from '../../identity/sign-in/sign-in.module';
import { UsersModule } from '../../identity/users/users.module';
import { AuthorizeModule } from '../../tokens/authorization/authorize.module';
import { DeviceAuthorizationModule } from '../../tokens/device-authorization/device-authorization.module';
import { DpopModule } from '../../tokens/dpop/dpop.module';
import { InteractionModule } from '../interaction/interaction.module';
import { AuthorizationInteractionService } from './authorization-interaction.service';
import { AuthorizeController } from './authorize.controller';
import { AuthorizeService } from './authorize.service';
import { ExpiredSignInStatePurger } from './expired-sign-in-state.purger';
import { PushedAuthorizationRequestEntity } from './persistence/pushed-authorization-request.entity';
import { TypeOrmPushedAuthorizationRequestRepository } from './persistence/typeorm-pushed-authorization-request.repository';
import { PushedAuthorizationRequestRepository } from './pushed-authorization-request.repository';
import { PushedAuthorizationService } from './pushed-authorization.service';

/**
 * The authorization endpoint (docs/browser-sign-in.md): request validation, pushed requests
 * (RFC 9126, whose own endpoint is src/endpoints/pushed-authorization/), the flow's decisions, and the
 * forms of its pages; the pages themselves are rendered by the interaction module.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PushedAuthorizationRequestEntity]),
    AuthorizeModule,
    AuditModule,
    ClientsModule,
    ResourcesModule,
    UsersModule,
    SessionsModule,
    SignInModule,
    PasskeysModule,
    DeviceAuthorizationModule,
    DpopModule,
    InteractionModule,
  ],
  controllers: [AuthorizeController],
  providers: [
    { provide: PushedAuthorizationRequestRepository, useClass: TypeOrmPushedAuthorizationRequestRepository },
    PushedAuthorizationService,
    AuthorizeService,
    AuthorizationInteractionService,
    ExpiredSignInStatePurger,
  ],
  exports: [PushedAuthorizationService],
})
export class AuthorizationEndpointModule {}
