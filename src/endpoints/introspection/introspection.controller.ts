import { Controller, HttpCode, Post } from '@nestjs/common';
import { NoStore } from '../../platform/http/no-store.decorator';
import type { AuthenticatedClient } from '../../identity/clients/client';
import { AuthenticatesClient, CurrentClient } from '../../identity/client-auth/client-auth.guard';
import { FormParameters } from '../../platform/http/form-parameters.pipe';
import { TokenParameters } from '../../protocol/token-parameters';
import { ConfidentialClientGuard } from './confidential-client.guard';
import type { IntrospectionResponse } from './introspection-response';
import { IntrospectionService } from './introspection.service';

@Controller('connect')
export class IntrospectionController {
  constructor(private readonly introspection: IntrospectionService) {}

  @Post('introspect')
  @HttpCode(200)
  @AuthenticatesClient('introspection', ConfidentialClientGuard)
  @NoStore()
  introspect(@FormParameters(TokenParameters) parameters: TokenParameters, @CurrentClient() client: AuthenticatedClient): Promise<IntrospectionResponse> {
    return this.introspection.introspect(parameters, client);
  }
}
