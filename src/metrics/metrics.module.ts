import { Module } from '@nestjs/common';
import { DatabaseMonitoringModule } from '../database/database-monitoring.module';
import { DatabasePoolStats } from '../database/database-pool.stats';
import { KeysModule } from '../keys/keys.module';
import { SigningKeyStore } from '../keys/signing-key.store';
import { TollgateMetrics } from './metrics';
import { MetricsListener } from './metrics.listener';

@Module({
  imports: [KeysModule, DatabaseMonitoringModule],
  providers: [
    {
      provide: TollgateMetrics,
      inject: [SigningKeyStore, DatabasePoolStats],
      useFactory: (keys: SigningKeyStore, pool: DatabasePoolStats) =>
        new TollgateMetrics({
          signingKeyCreatedAt: () => keys.activeSigningKey?.createdAt,
          pool: () => pool.current(),
        }),
    },
    MetricsListener,
  ],
  exports: [TollgateMetrics, MetricsListener],
})
export class MetricsModule {}
