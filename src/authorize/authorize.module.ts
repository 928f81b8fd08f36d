import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { ResourcesModule } from '../resources/resources.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { AuthorizationCodeRepository } from './authorization-code.repository';
import { AuthorizationCodeService } from './authorization-code.service';
import { AuthorizeService } from './authorize.service';
import { ConsentRepository } from './consent.repository';
import { ExpiredSignInStatePurger } from './expired-sign-in-state.purger';
import { TypeOrmAuthorizationCodeRepository } from './persistence/typeorm-authorization-code.repository';
import { TypeOrmConsentRepository } from './persistence/typeorm-consent.repository';

/** The authorization endpoint's protocol side: request validation, decisions, codes, consents. */
@Module({
  imports: [ClientsModule, ResourcesModule, UsersModule, SessionsModule],
  providers: [
    { provide: AuthorizationCodeRepository, useClass: TypeOrmAuthorizationCodeRepository },
    { provide: ConsentRepository, useClass: TypeOrmConsentRepository },
    AuthorizationCodeService,
    AuthorizeService,
    ExpiredSignInStatePurger,
  ],
  exports: [AuthorizationCodeService, AuthorizeService],
})
export class AuthorizeModule {}
