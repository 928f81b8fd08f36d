import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { ArrivedAt } from '../../platform/http/request-arrival';
import { DpopProof } from '../../tokens/dpop/dpop-proof.header';
import type { DpopHeader } from '../../tokens/dpop/dpop-proof.verifier';
import type { FormBody } from '../../protocol/form';
import { NoStore } from '../../platform/http/no-store.decorator';
import { OAuthRoute } from '../../platform/http/oauth-route';
import { ClientAddress, AuthenticatesClient, CurrentClient } from '../../identity/client-auth/client-auth.guard';
import type { TokenResponse } from './token-response';
import { TokenService } from './token.service';

@Controller('connect')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @OAuthRoute({ otherMethods: 'the token endpoint accepts POST only' })
  @HttpCode(200)
  @AuthenticatesClient('token')
  @NoStore()
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
