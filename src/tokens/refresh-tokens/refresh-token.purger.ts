import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PeriodicTask } from '../../platform/scheduling/periodic-task';
import { RefreshTokenRepository } from './refresh-token.repository';

const PURGE_INTERVAL_MS = 15 * 60_000;
// Expired rows are kept a day, for the operator's inspection; they answer nothing but invalid_grant.
const RETENTION_MS = 24 * 60 * 60_000;
const BATCH_SIZE = 5_000;
const MAX_BATCHES = 100;

/** Deletes long-expired refresh tokens periodically, off the request path. */
@Injectable()
export class RefreshTokenPurger implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RefreshTokenPurger.name);
  private readonly purges = new PeriodicTask({
    name: 'Purging expired refresh tokens',
    periodMs: PURGE_INTERVAL_MS,
    run: () => this.purge(),
    log: this.logger,
  });

  constructor(@Inject(RefreshTokenRepository) private readonly repository: Pick<RefreshTokenRepository, 'deleteExpiredBefore'>) {}

  onModuleInit(): void {
    this.purges.start();
  }

  onModuleDestroy(): void {
    this.purges.stop();
  }

  /** Deletes, in batches that keep each statement short, the tokens expired over a day ago. */
  async purge(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - RETENTION_MS);
    let deleted = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const count = await this.repository.deleteExpiredBefore(cutoff, BATCH_SIZE);
      deleted += count;
      if (count < BATCH_SIZE) break;
    }
    return deleted;
  }
}
