import { Global, Module } from '@nestjs/common';
import { AccessTokenModule } from '../tokens/access-token/access-token.module';
import { AuditModule } from '../platform/audit/audit.module';
import { SubjectIssuersModule } from '../tokens/subject-tokens/subject-issuers.module';
import { SubjectTokenValidator } from '../tokens/subject-tokens/subject-token.validator';
import { UsersModule } from '../identity/users/users.module';
import { TokenExchangeHandlers } from './token-exchange-handlers';

/**
 * The token services every grant module can inject without importing anything of Tollgate's
 * (docs/extending.md#token-services): `SubjectTokenValidator`, `UserDirectory`, `AuditSink`. The
 * built-in grants get exactly these and what their own module imports.
 */
@Global()
@Module({
  imports: [AccessTokenModule, SubjectIssuersModule, UsersModule, AuditModule],
  providers: [SubjectTokenValidator, TokenExchangeHandlers],
  exports: [SubjectTokenValidator, TokenExchangeHandlers, UsersModule, AuditModule],
})
export class GrantServicesModule {}
