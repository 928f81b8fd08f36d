import { Body, Controller, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { ClientAuthGuard, CurrentClient } from '../../identity/client-auth/client-auth.guard';
import type { FormBody } from '../../protocol/form';
import type { DeviceAuthorizationResponse } from '../../tokens/device-authorization/device-authorization';
import { DeviceAuthorizationService } from '../../tokens/device-authorization/device-authorization.service';

@Controller('connect')
export class DeviceAuthorizationController {
  constructor(private readonly devices: DeviceAuthorizationService) {}

  /** RFC 8628 §3.1–3.2: client authentication as at the token endpoint, 200 with the codes. */
  @Post('deviceauthorization')
  @HttpCode(200)
  @UseGuards(ClientAuthGuard)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  start(@Body() body: FormBody, @CurrentClient() client: AuthenticatedClient): Promise<DeviceAuthorizationResponse> {
    return this.devices.start(body, client.client);
  }
}
