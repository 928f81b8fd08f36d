import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { NoStore } from '../../platform/http/no-store.decorator';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { ClientAddress, AuthenticatesClient, CurrentClient } from '../../identity/client-auth/client-auth.guard';
import { ArrivedAt } from '../../platform/http/request-arrival';
import type { FormBody } from '../../protocol/form';
import type { TokenResponse } from './token-response';
import { TokenService } from './token.service';

@Controller('connect')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @HttpCode(200)
  @AuthenticatesClient('token')
  @NoStore()
  token(
    @Body() body: FormBody,
    @CurrentClient() client: AuthenticatedClient,
    @ClientAddress() address: string,
    @ArrivedAt() arrivedAt: number,
  ): Promise<TokenResponse> {
    return this.tokens.requestToken(body, client, address, arrivedAt);
  }
}
