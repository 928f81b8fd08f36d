import { Module } from '@nestjs/common';
import { ClientAuthModule } from '../../identity/client-auth/client-auth.module';
import { AuthorizationEndpointModule } from '../authorize/authorization-endpoint.module';
import { PushedAuthorizationController } from './pushed-authorization.controller';

/** The pushed authorization request endpoint, `POST /connect/par` (RFC 9126). */
@Module({
  imports: [AuthorizationEndpointModule, ClientAuthModule],
  controllers: [PushedAuthorizationController],
})
export class PushedAuthorizationModule {}
