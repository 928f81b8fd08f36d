import { Module } from '@nestjs/common';
import { ClientAuthModule } from '../../identity/client-auth/client-auth.module';
import { DeviceAuthorizationController } from './device-authorization.controller';
import { DeviceAuthorizationModule } from '../../tokens/device-authorization/device-authorization.module';

/** The device authorization endpoint, `POST /connect/deviceauthorization` (RFC 8628 §3.1). */
@Module({
  imports: [DeviceAuthorizationModule, ClientAuthModule],
  controllers: [DeviceAuthorizationController],
})
export class DeviceAuthorizationEndpointModule {}
