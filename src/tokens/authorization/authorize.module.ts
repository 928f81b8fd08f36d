import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthorizationCodeRepository } from './authorization-code.repository';
import { AuthorizationCodeService } from './authorization-code.service';
import { ConsentRepository } from './consent.repository';
import { AuthorizationCodeEntity } from './persistence/authorization-code.entity';
import { ConsentEntity } from './persistence/consent.entity';
import { TypeOrmAuthorizationCodeRepository } from './persistence/typeorm-authorization-code.repository';
import { TypeOrmConsentRepository } from './persistence/typeorm-consent.repository';

/**
 * What the authorization endpoint (src/endpoints/authorize/) records and the authorization_code grant
 * redeems: authorization codes, and the consents users gave clients.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuthorizationCodeEntity, ConsentEntity])],
  providers: [
    { provide: AuthorizationCodeRepository, useClass: TypeOrmAuthorizationCodeRepository },
    { provide: ConsentRepository, useClass: TypeOrmConsentRepository },
    AuthorizationCodeService,
  ],
  exports: [AuthorizationCodeService, ConsentRepository],
})
export class AuthorizeModule {}
