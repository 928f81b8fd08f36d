import { Inject, Injectable } from '@nestjs/common';
import { CachedLookup } from '../../platform/cache/cached-lookup';
import type { ConfigType } from '../../platform/config/config-slice';
import { cacheConfig } from '../../platform/config/config.slices';
import { isClientIdUrl } from './self-registered/client-id-url';
import { ClientMetadataDocumentResolver, type ClientLookup } from './self-registered/client-metadata-document.resolver';
import { selfRegisteredScopes } from './self-registered/self-registered-client';
import { ResourceStore } from '../resources/resource.store';
import type { Client } from './client';
import { ClientRepository } from './client.repository';

/**
 * Clients from memory, reloaded from the repository at most `CACHE_TTL_SECONDS` after they were
 * read, so a disabled client or a rotated secret is seen within seconds without a query per request.
 */
@Injectable()
export class ClientStore {
  private readonly clients: CachedLookup<Client>;
  private readonly boundClientIds: CachedLookup<{ clientId: string | undefined }>;

  constructor(
    repository: ClientRepository,
    @Inject(cacheConfig.KEY) cache: ConfigType<typeof cacheConfig>,
    private readonly documents: ClientMetadataDocumentResolver,
    private readonly resources: ResourceStore,
  ) {
    this.clients = new CachedLookup((clientId) => repository.findById(clientId), cache.ttlSeconds);
    this.boundClientIds = new CachedLookup(async (key) => {
      const [issuer, subject] = JSON.parse(key) as [string, string];
      return { clientId: await repository.findClientIdByWorkloadIdentity(issuer, subject) };
    }, cache.ttlSeconds);
  }

  async find(clientId: string): Promise<Client | undefined> {
    const found = await this.lookup(clientId);
    return 'client' in found ? found.client : undefined;
  }

  /**
   * The client, or why there is none: a URL client_id names a metadata document (docs/agents.md),
   * whose problem the authorization endpoint's error page tells.
   */
  async lookup(clientId: string): Promise<ClientLookup> {
    if (isClientIdUrl(clientId)) return this.documents.resolve(clientId);
    const client = await this.clients.get(clientId);
    if (!client) return { problem: 'the client is unknown' };
    return { client: client.selfRegistered === 'dynamic' ? this.withinSelfRegisteredScopes(client) : client };
  }

  /** A resource closed to self-registered clients is closed to those registered before, at once. */
  private withinSelfRegisteredScopes(client: Client): Client {
    const open = new Set(selfRegisteredScopes(this.resources.catalog));
    return { ...client, allowedScopes: client.allowedScopes.filter((scope) => open.has(scope)) };
  }

  /** The client bound to a workload identity (docs/workload-identity.md). */
  async findByWorkloadIdentity(issuer: string, subject: string): Promise<Client | undefined> {
    if (subject.length > 2048) return undefined;
    const { clientId } = (await this.boundClientIds.get(JSON.stringify([issuer, subject]))) ?? {};
    return clientId === undefined ? undefined : this.find(clientId);
  }
}
