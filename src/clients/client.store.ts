import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import type { Client } from './client';
import { ClientRepository } from './client.repository';

interface Entry {
  readonly client?: Client;
}

/**
 * Clients from memory, reloaded from the repository at most `CACHE_TTL_SECONDS` after they were
 * read, so a disabled client or a rotated secret is seen within seconds without a query per request.
 */
@Injectable()
export class ClientStore {
  private readonly cache?: LRUCache<string, Entry>;

  constructor(
    private readonly repository: ClientRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    if (config.cacheTtlSeconds > 0) {
      this.cache = new LRUCache<string, Entry>({
        max: 10_000,
        // Unknown ids are cached too, and an id is whatever a request sent: bound their total length.
        maxSize: 4 * 1024 * 1024,
        sizeCalculation: (_entry, clientId) => clientId.length + 64,
        ttl: config.cacheTtlSeconds * 1000,
        fetchMethod: async (clientId) => ({ client: await this.repository.findById(clientId) }),
      });
    }
  }

  async find(clientId: string): Promise<Client | undefined> {
    if (!this.cache) return this.repository.findById(clientId);
    return (await this.cache.fetch(clientId))?.client;
  }
}
