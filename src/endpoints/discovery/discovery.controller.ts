import { Controller, Get, Header, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ConfigType } from '../../platform/config/config-slice';
import { agentsConfig, issuerConfig } from '../../platform/config/config.slices';
import { GrantValidatorRegistry } from '../../grants/grant-validator.registry';
import { TokenExchangeHandlers } from '../../grants/token-exchange-handlers';
import { SigningKeyStore } from '../../tokens/keys/signing-key.store';
import { ResourceStore } from '../../identity/resources/resource.store';
import { OAuthError } from '../../protocol/oauth-error';
import { discoveryDocument, rfc8414MetadataPath } from './discovery-document';

@Controller('.well-known')
export class DiscoveryController {
  constructor(
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
    @Inject(agentsConfig.KEY) private readonly agents: ConfigType<typeof agentsConfig>,
    private readonly grants: GrantValidatorRegistry,
    private readonly resources: ResourceStore,
    private readonly keys: SigningKeyStore,
    @Inject(TokenExchangeHandlers) private readonly exchangeHandlers: Pick<TokenExchangeHandlers, 'requestedTokenTypes'>,
  ) {}

  // RFC 8414 §3 serves the same metadata as OpenID Connect Discovery 1.0 §4.
  @Get(['openid-configuration', 'oauth-authorization-server'])
  @Header('Cache-Control', 'public, max-age=60')
  configuration(): Record<string, unknown> {
    return discoveryDocument({
      issuer: this.config.issuer,
      grantTypes: this.grants.grantTypes(),
      catalog: this.resources.catalog,
      signingAlgorithms: this.keys.publishedAlgorithms(),
      metadataDocuments: this.agents.metadataDocuments,
      dynamicRegistration: this.agents.dynamicRegistration !== 'off',
      exchangeTokenTypes: this.exchangeHandlers.requestedTokenTypes(),
    });
  }

  // RFC 8414 §3.1: an issuer with a path also has its metadata at the path-inserted URL, and only there.
  @Get('oauth-authorization-server/*')
  @Header('Cache-Control', 'public, max-age=60')
  pathInsertedConfiguration(@Req() request: FastifyRequest): Record<string, unknown> {
    if (request.url.split('?', 1)[0] !== rfc8414MetadataPath(this.config.issuer)) throw OAuthError.invalidRequest('Not found', { status: 404 });
    return this.configuration();
  }

  @Get('openid-configuration/jwks')
  @Header('Cache-Control', 'public, max-age=60')
  jwks(): { keys: object[] } {
    return { keys: this.keys.publishedKeys().map((key) => key.publicJwk) };
  }
}
