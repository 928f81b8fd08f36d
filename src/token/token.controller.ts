import { Body, Controller, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { AuthenticatedClient } from '../clients/client';
import { ClientAddress, ClientAuthGuard, CurrentClient } from '../client-auth/client-auth.guard';
import { ArrivedAt } from '../http/request-arrival';
import { DpopProof } from '../dpop/dpop-proof.header';
import type { DpopHeader } from '../dpop/dpop-proof.verifier';
import type { FormBody } from '../oauth/form';
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
    @DpopProof() dpopProof: DpopHeader,
  ): Promise<TokenResponse> {
    return this.tokens.requestToken(body, client, address, arrivedAt, dpopProof);
  }
}
