import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

export type PoolStats = Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;

/** The pg pool's connection counts, for metrics. */
@Injectable()
export class DatabasePoolStats {
  constructor(private readonly dataSource: DataSource) {}

  current(): PoolStats | undefined {
    const { driver } = this.dataSource;
    // TypeORM types the pg pool `any`: it is pg's Pool once connected.
    return driver instanceof PostgresDriver ? (driver.master as Pool | undefined) : undefined;
  }
}
