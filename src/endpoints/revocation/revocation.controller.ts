import { Controller, HttpCode, Post } from '@nestjs/common';
import { NoStore } from '../../platform/http/no-store.decorator';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { AuthenticatesClient, CurrentClient } from '../../identity/client-auth/client-auth.guard';
import { FormParameters } from '../../platform/http/form-parameters.pipe';
import { TokenParameters } from '../../protocol/token-parameters';
import { RevocationService } from './revocation.service';

@Controller('connect')
export class RevocationController {
  constructor(private readonly revocation: RevocationService) {}

  /** RFC 7009 §2.2: 200 with an empty body, whether or not there was anything to revoke. */
  @Post('revocation')
  @HttpCode(200)
  @AuthenticatesClient('revocation')
  @NoStore()
  revoke(@FormParameters(TokenParameters) parameters: TokenParameters, @CurrentClient() client: AuthenticatedClient): Promise<void> {
    return this.revocation.revoke(parameters, client);
  }
}
