import { Inject, Injectable } from '@nestjs/common';
import { CachedLookup } from '../../platform/cache/cached-lookup';
import type { ConfigType } from '../../platform/config/config-slice';
import { cacheConfig } from '../../platform/config/config.slices';
import type { PartnerAuthorizationServer } from './partner-authorization-server';
import { PartnerAuthorizationServerRepository } from './partner-authorization-server.repository';

const MAX_ISSUER_LENGTH = 500;

/**
 * The partner authorization servers registered by migration (docs/chaining.md#partner-authorization-servers),
 * from memory, reloaded every `CACHE_TTL_SECONDS` like clients. A token service for grants that
 * issue JWT authorization grants for another domain.
 */
@Injectable()
export class PartnerAuthorizationServers {
  private readonly partners: CachedLookup<PartnerAuthorizationServer>;
  private readonly clients: CachedLookup<{ readonly known: boolean }>;

  constructor(
    @Inject(PartnerAuthorizationServerRepository) repository: PartnerAuthorizationServerRepository,
    @Inject(cacheConfig.KEY) cache: ConfigType<typeof cacheConfig>,
  ) {
    this.partners = new CachedLookup((issuer) => repository.findByIssuer(issuer), cache.ttlSeconds);
    this.clients = new CachedLookup(async (clientId) => ({ known: await repository.knowsClient(clientId) }), cache.ttlSeconds);
  }

  /** The enabled partner whose issuer identifier is `issuer`, or undefined. */
  async find(issuer: string): Promise<PartnerAuthorizationServer | undefined> {
    if (issuer.length === 0 || issuer.length > MAX_ISSUER_LENGTH) return undefined;
    return this.partners.get(issuer);
  }

  /** Whether the client may ask for grants at all: some enabled partner knows it. */
  async knowClient(clientId: string): Promise<boolean> {
    return (await this.clients.get(clientId))?.known === true;
  }
}
