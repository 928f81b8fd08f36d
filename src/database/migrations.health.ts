import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

/** Ready only when every migration this build knows has been applied. */
@Injectable()
export class MigrationsHealthIndicator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly health: HealthIndicatorService,
  ) {}

  check(key: string) {
    return this.health
      .check(key)
      .attempt(async () => {
        if (await this.dataSource.showMigrations()) throw new Error('pending migrations');
        return {};
      })
      .withTimeout(2000);
  }
}
