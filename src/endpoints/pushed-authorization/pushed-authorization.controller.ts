import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { NoStore } from '../../platform/http/no-store.decorator';
import type { PushedAuthorizationResponse } from '../authorize/pushed-authorization-request';
import { PushedAuthorizationService } from '../authorize/pushed-authorization.service';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { AuthenticatesClient, ClientAddress, CurrentClient } from '../../identity/client-auth/client-auth.guard';
import type { FormBody } from '../../protocol/form';
import { DpopProof } from '../../tokens/dpop/dpop-proof.header';
import type { DpopHeader } from '../../tokens/dpop/dpop-proof.verifier';

@Controller('connect')
export class PushedAuthorizationController {
  constructor(private readonly pushed: PushedAuthorizationService) {}

  /** RFC 9126 §2: client authentication as at the token endpoint, 201 with the `request_uri`. */
  @Post('par')
  @HttpCode(201)
  @AuthenticatesClient('pushed_authorization')
  @NoStore()
  push(
    @Body() body: FormBody,
    @CurrentClient() client: AuthenticatedClient,
    @ClientAddress() address: string,
    @DpopProof() dpopProof: DpopHeader,
  ): Promise<PushedAuthorizationResponse> {
    return this.pushed.push(body, client, address, dpopProof);
  }
}
