import { Controller, Get, Header, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { OAuthError } from '../../protocol/oauth-error';
import { ssfConfiguration, ssfConfigurationPath } from './ssf-configuration';

@Controller('.well-known')
export class SsfConfigurationController {
  constructor(@Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>) {}

  @Get('ssf-configuration')
  @Header('Cache-Control', 'public, max-age=60')
  configuration(): Record<string, unknown> {
    return ssfConfiguration(this.config.issuer);
  }

  // SSF 1.0 §7.2: an issuer with a path also has it at the path-inserted URL, and only there (as discovery, docs/endpoints.md#discovery).
  @Get('ssf-configuration/*')
  @Header('Cache-Control', 'public, max-age=60')
  pathInsertedConfiguration(@Req() request: FastifyRequest): Record<string, unknown> {
    if (request.url.split('?', 1)[0] !== ssfConfigurationPath(this.config.issuer)) throw OAuthError.invalidRequest('Not found', { status: 404 });
    return this.configuration();
  }
}
