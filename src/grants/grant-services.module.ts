import { Global, Module } from '@nestjs/common';
import { AccessTokenModule } from '../tokens/access-token/access-token.module';
import { AuditModule } from '../platform/audit/audit.module';
import { SubjectIssuersModule } from '../tokens/subject-tokens/subject-issuers.module';
import { SubjectTokenValidator } from '../tokens/subject-tokens/subject-token.validator';
import { UsersModule } from '../identity/users/users.module';
import { TokenExchangeHandlers } from './token-exchange-handlers';
import { ClientAuthModule } from '../identity/client-auth/client-auth.module';
import { PartnersModule } from '../identity/partners/partners.module';
import { TrustedIssuersModule } from '../identity/trusted-issuers/trusted-issuers.module';
import { IdTokenModule } from '../tokens/id-token/id-token.module';
import { TokenSignerModule } from './token-signer.module';

/**
 * The token services every grant module can inject without importing anything of Tollgate's
 * (docs/extending.md#token-services-for-your-grant): `SubjectTokenValidator`, `UserDirectory`, `AuditSink`, and
 * for grants across trust domains `AuthorizationGrantIssuers`, `PartnerAuthorizationServers`,
 * `AssertionReplayGuard`, `IdTokenValidator` and `TokenSigner` (docs/chaining.md). The
 * built-in grants get exactly these and what their own module imports.
 */
@Global()
@Module({
  imports: [
    AccessTokenModule,
    SubjectIssuersModule,
    UsersModule,
    AuditModule,
    TrustedIssuersModule,
    PartnersModule,
    ClientAuthModule,
    IdTokenModule,
    TokenSignerModule,
  ],
  providers: [SubjectTokenValidator, TokenExchangeHandlers],
  exports: [
    SubjectTokenValidator,
    TokenExchangeHandlers,
    UsersModule,
    AuditModule,
    // Across trust domains (docs/chaining.md): AuthorizationGrantIssuers, PartnerAuthorizationServers,
    // AssertionReplayGuard, IdTokenValidator and TokenSigner, through the modules that provide them.
    TrustedIssuersModule,
    PartnersModule,
    ClientAuthModule,
    IdTokenModule,
    TokenSignerModule,
  ],
})
export class GrantServicesModule {}
