import { Module } from '@nestjs/common';
import { DatabasePoolStats } from '../database/database-pool.stats';
import { KeysModule } from '../keys/keys.module';
import { SigningKeyStore } from '../keys/signing-key.store';
import { TollgateMetrics } from './metrics';
import { MetricsController } from './metrics.controller';

@Module({
  imports: [KeysModule],
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
  ],
  controllers: [MetricsController],
  exports: [TollgateMetrics],
})
export class MetricsModule {}
