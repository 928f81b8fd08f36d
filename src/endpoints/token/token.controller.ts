import { Body, Controller, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { ClientAddress, ClientAuthGuard, CurrentClient } from '../../identity/client-auth/client-auth.guard';
import { ArrivedAt } from '../../platform/http/request-arrival';
import type { FormBody } from '../../protocol/form';
import type { TokenResponse } from './token-response';
import { TokenService } from './token.service';

@Controller('connect')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @HttpCode(200)
  @UseGuards(ClientAuthGuard)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  token(
    @Body() body: FormBody,
    @CurrentClient() client: AuthenticatedClient,
    @ClientAddress() address: string,
    @ArrivedAt() arrivedAt: number,
  ): Promise<TokenResponse> {
    return this.tokens.requestToken(body, client, address, arrivedAt);
  }
}
