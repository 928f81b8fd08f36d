import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsModule } from '../../identity/clients/clients.module';
import { DeviceAuthorizationModule } from '../device-authorization/device-authorization.module';
import { DpopModule } from '../dpop/dpop.module';
import { ResourcesModule } from '../../identity/resources/resources.module';
import { SessionsModule } from '../../identity/sessions/sessions.module';
import { UsersModule } from '../../identity/users/users.module';
import { PasskeysModule } from '../../identity/passkeys/passkeys.module';
import { AuthorizationCodeRepository } from './authorization-code.repository';
import { AuthorizationCodeService } from './authorization-code.service';
import { AuthorizeService } from './authorize.service';
import { ConsentRepository } from './consent.repository';
import { ExpiredSignInStatePurger } from './expired-sign-in-state.purger';
import { AuthorizationCodeEntity } from './persistence/authorization-code.entity';
import { ConsentEntity } from './persistence/consent.entity';
import { PushedAuthorizationRequestEntity } from './persistence/pushed-authorization-request.entity';
import { TypeOrmAuthorizationCodeRepository } from './persistence/typeorm-authorization-code.repository';
import { TypeOrmConsentRepository } from './persistence/typeorm-consent.repository';
import { TypeOrmPushedAuthorizationRequestRepository } from './persistence/typeorm-pushed-authorization-request.repository';
import { PushedAuthorizationRequestRepository } from './pushed-authorization-request.repository';
import { PushedAuthorizationService } from './pushed-authorization.service';

/** The authorization endpoint's protocol side: request validation, pushed requests, decisions, codes, consents. */
@Module({
  imports: [
    TypeOrmModule.forFeature([AuthorizationCodeEntity, ConsentEntity, PushedAuthorizationRequestEntity]),
    ClientsModule,
    ResourcesModule,
    UsersModule,
    SessionsModule,
    DeviceAuthorizationModule,
    DpopModule,
    PasskeysModule,
  ],
  providers: [
    { provide: AuthorizationCodeRepository, useClass: TypeOrmAuthorizationCodeRepository },
    { provide: ConsentRepository, useClass: TypeOrmConsentRepository },
    { provide: PushedAuthorizationRequestRepository, useClass: TypeOrmPushedAuthorizationRequestRepository },
    AuthorizationCodeService,
    PushedAuthorizationService,
    AuthorizeService,
    ExpiredSignInStatePurger,
  ],
  exports: [AuthorizationCodeService, AuthorizeService, PushedAuthorizationService, ConsentRepository],
})
export class AuthorizeModule {}
