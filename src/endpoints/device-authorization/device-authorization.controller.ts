import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { NoStore } from '../../platform/http/no-store.decorator';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { AuthenticatesClient, ClientAddress, CurrentClient } from '../../identity/client-auth/client-auth.guard';
import type { FormBody } from '../../protocol/form';
import type { DeviceAuthorizationResponse } from '../../tokens/device-authorization/device-authorization';
import { DeviceAuthorizationService } from '../../tokens/device-authorization/device-authorization.service';

@Controller('connect')
export class DeviceAuthorizationController {
  constructor(private readonly devices: DeviceAuthorizationService) {}

  /** RFC 8628 §3.1–3.2: client authentication as at the token endpoint, 200 with the codes. */
  @Post('deviceauthorization')
  @HttpCode(200)
  @AuthenticatesClient('device_authorization')
  @NoStore()
  start(@Body() body: FormBody, @CurrentClient() client: AuthenticatedClient, @ClientAddress() address: string): Promise<DeviceAuthorizationResponse> {
    return this.devices.start(body, client, address);
  }
}
