import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** The pg pool's connection counts, for metrics. */
@Injectable()
export class DatabasePoolStats {
  constructor(private readonly dataSource: DataSource) {}

  current(): PoolStats | undefined {
    return (this.dataSource.driver as unknown as { master?: PoolStats }).master;
  }
}
