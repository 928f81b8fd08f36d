import { Body, Controller, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { AuthenticatedClient } from '../clients/client';
import { ClientAuthGuard, CurrentClient } from '../client-auth/client-auth.guard';
import type { FormBody } from '../oauth/form';
import type { IntrospectionResponse } from './introspection-response';
import { IntrospectionService } from './introspection.service';

@Controller('connect')
export class IntrospectionController {
  constructor(private readonly introspection: IntrospectionService) {}

  @Post('introspect')
  @HttpCode(200)
  @UseGuards(ClientAuthGuard)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  introspect(@Body() body: FormBody, @CurrentClient() client: AuthenticatedClient): Promise<IntrospectionResponse> {
    return this.introspection.introspect(body, client);
  }
}
