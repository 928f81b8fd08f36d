import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { ConfigType } from '../config/config-slice';
import { cacheConfig } from '../config/config.slices';
import { ResourceCatalog } from './resource-catalog';
import { ResourceRepository } from './resource.repository';

/** The resource catalog, loaded at start and reloaded every `CACHE_TTL_SECONDS`. */
@Injectable()
export class ResourceStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ResourceStore.name);
  private current = new ResourceCatalog({ identityResources: [], apiResources: [] });
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly repository: ResourceRepository,
    @Inject(cacheConfig.KEY) private readonly cache: ConfigType<typeof cacheConfig>,
  ) {}

  get catalog(): ResourceCatalog {
    return this.current;
  }

  async onModuleInit(): Promise<void> {
    await this.reload();
    const period = Math.max(this.cache.ttlSeconds, 1) * 1000;
    this.timer = setInterval(() => void this.reload().catch((error: Error) => this.logger.warn(`Reloading resources failed: ${error.message}`)), period);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async reload(): Promise<void> {
    this.current = new ResourceCatalog(await this.repository.loadEnabled());
  }
}
