import { Module } from '@nestjs/common';
import { UsersModule } from '../../identity/users/users.module';
import { ExternalSubjectTokenValidator } from './external-subject-token.validator';
import { TrustedIssuersModule } from '../../identity/trusted-issuers/trusted-issuers.module';

/** Subject tokens of trusted subject issuers, for token exchange (docs/delegation.md). */
@Module({
  imports: [TrustedIssuersModule, UsersModule],
  providers: [ExternalSubjectTokenValidator],
  exports: [ExternalSubjectTokenValidator],
})
export class SubjectIssuersModule {}
