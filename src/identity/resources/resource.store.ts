import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { ConfigType } from '../../platform/config/config-slice';
import { cacheConfig } from '../../platform/config/config.slices';
import { PeriodicTask } from '../../platform/scheduling/periodic-task';
import { ResourceCatalog } from './resource-catalog';
import { ResourceRepository } from './resource.repository';

/** The resource catalog, loaded at start and reloaded every `CACHE_TTL_SECONDS`. */
@Injectable()
export class ResourceStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ResourceStore.name);
  private current = new ResourceCatalog({ identityResources: [], apiResources: [] });
  private reloads?: PeriodicTask;

  constructor(
    private readonly repository: ResourceRepository,
    @Inject(cacheConfig.KEY) private readonly cache: ConfigType<typeof cacheConfig>,
  ) {}

  get catalog(): ResourceCatalog {
    return this.current;
  }

  async onModuleInit(): Promise<void> {
    await this.reload();
    const periodMs = Math.max(this.cache.ttlSeconds, 1) * 1000;
    this.reloads = new PeriodicTask({ name: 'Reloading resources', periodMs, run: () => this.reload(), log: this.logger });
    this.reloads.start();
  }

  onModuleDestroy(): void {
    this.reloads?.stop();
  }

  async reload(): Promise<void> {
    this.current = new ResourceCatalog(await this.repository.loadEnabled());
  }
}
