import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ConfigType } from '../../platform/config/config-slice';
import { agentsConfig } from '../../platform/config/config.slices';
import { PeriodicTask } from '../../platform/scheduling/periodic-task';
import { RegisteredClientRepository } from './registered-client.repository';

const PURGE_INTERVAL_MS = 60 * 60_000;

/**
 * Removes self-registered clients unused for `DYNAMIC_CLIENT_EXPIRY_DAYS` (docs/agents.md#expiry),
 * with their codes, tokens and consents: a registration nobody uses is no standing credential. A
 * metadata document's row comes back at its next use.
 */
@Injectable()
export class UnusedClientPurger implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(UnusedClientPurger.name);
  private readonly purges = new PeriodicTask({
    name: 'Removing unused self-registered clients',
    periodMs: PURGE_INTERVAL_MS,
    run: () => this.purge(),
    log: this.logger,
  });

  constructor(
    private readonly clients: RegisteredClientRepository,
    @Inject(agentsConfig.KEY) private readonly config: ConfigType<typeof agentsConfig>,
  ) {}

  onModuleInit(): void {
    this.purges.start();
  }

  onModuleDestroy(): void {
    this.purges.stop();
  }

  /** Returns how many clients were removed. */
  purge(now = new Date()): Promise<number> {
    return this.clients.purgeUnused(new Date(now.getTime() - this.config.dynamicClientExpiryDays * 86_400_000));
  }
}
