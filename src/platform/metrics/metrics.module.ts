import { Module } from '@nestjs/common';
import { DatabaseMonitoringModule } from '../database/database-monitoring.module';
import { DatabasePoolStats } from '../database/database-pool.stats';
import { TollgateMetrics } from './metrics';
import { MetricsListener } from './metrics.listener';

@Module({
  imports: [DatabaseMonitoringModule],
  providers: [
    {
      provide: TollgateMetrics,
      inject: [DatabasePoolStats],
      useFactory: (pool: DatabasePoolStats) => new TollgateMetrics({ pool: () => pool.current() }),
    },
    MetricsListener,
  ],
  exports: [TollgateMetrics, MetricsListener],
})
export class MetricsModule {}
