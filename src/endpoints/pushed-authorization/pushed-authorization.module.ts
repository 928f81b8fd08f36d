import { Module } from '@nestjs/common';
import { AuthorizeModule } from '../../tokens/authorization/authorize.module';
import { ClientAuthModule } from '../../identity/client-auth/client-auth.module';
import { PushedAuthorizationController } from './pushed-authorization.controller';

/** The pushed authorization request endpoint, `POST /connect/par` (RFC 9126). */
@Module({
  imports: [AuthorizeModule, ClientAuthModule],
  controllers: [PushedAuthorizationController],
})
export class PushedAuthorizationModule {}
