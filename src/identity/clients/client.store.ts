import { Inject, Injectable } from '@nestjs/common';
import { CachedLookup } from '../../platform/cache/cached-lookup';
import type { ConfigType } from '../../platform/config/config-slice';
import { cacheConfig } from '../../platform/config/config.slices';
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

  constructor(repository: ClientRepository, @Inject(cacheConfig.KEY) cache: ConfigType<typeof cacheConfig>) {
    this.clients = new CachedLookup((clientId) => repository.findById(clientId), cache.ttlSeconds);
    this.boundClientIds = new CachedLookup(async (key) => {
      const [issuer, subject] = JSON.parse(key) as [string, string];
      return { clientId: await repository.findClientIdByWorkloadIdentity(issuer, subject) };
    }, cache.ttlSeconds);
  }

  find(clientId: string): Promise<Client | undefined> {
    return this.clients.get(clientId);
  }

  /** The client bound to a workload identity (docs/workload-identity.md). */
  async findByWorkloadIdentity(issuer: string, subject: string): Promise<Client | undefined> {
    if (subject.length > 2048) return undefined;
    const { clientId } = (await this.boundClientIds.get(JSON.stringify([issuer, subject]))) ?? {};
    return clientId === undefined ? undefined : this.find(clientId);
  }
}
