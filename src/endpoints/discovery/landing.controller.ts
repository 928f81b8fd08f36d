import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';

/**
 * `GET /`: what answers here and where to start, for whoever opens the service's address in a
 * browser or with curl (docs/endpoints.md#the-root); clients use the discovery document.
 */
@Controller()
export class LandingController {
  constructor(@Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  landing(): Record<string, string> {
    const { issuer } = this.config;
    return {
      service: 'Tollgate, an OAuth 2.0 and OpenID Connect token service',
      issuer,
      openid_configuration: `${issuer}/.well-known/openid-configuration`,
      token_endpoint: `${issuer}/connect/token (POST)`,
    };
  }
}
