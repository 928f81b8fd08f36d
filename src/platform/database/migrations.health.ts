import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

/**
 * Ready only when every migration this build knows has been applied. Once they all are, that stays
 * true for this process (migrations only ever run at start), so later probes query nothing.
 */
@Injectable()
export class MigrationsHealthIndicator {
  private allApplied = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: Pick<DataSource, 'showMigrations'>,
    private readonly health: HealthIndicatorService,
  ) {}

  check(key: string) {
    return this.health
      .check(key)
      .attempt(async () => {
        if (!this.allApplied && (await this.dataSource.showMigrations())) throw new Error('pending migrations');
        this.allApplied = true;
        return {};
      })
      .withTimeout(2000);
  }
}
