import { Module } from '@nestjs/common';
import { AuthorizeModule } from '../authorize/authorize.module';
import { ClientAuthModule } from '../client-auth/client-auth.module';
import { PushedAuthorizationController } from './pushed-authorization.controller';

/** The pushed authorization request endpoint, `POST /connect/par` (RFC 9126). */
@Module({
  imports: [AuthorizeModule, ClientAuthModule],
  controllers: [PushedAuthorizationController],
})
export class PushedAuthorizationModule {}
