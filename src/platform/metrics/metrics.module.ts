import { Module } from '@nestjs/common';
import { AccessTokenModule } from '../../tokens/access-token/access-token.module';
import { AccessTokenValidator } from '../../tokens/access-token/access-token.validator';
import { DatabaseMonitoringModule } from '../database/database-monitoring.module';
import { DatabasePoolStats } from '../database/database-pool.stats';
import { KeysModule } from '../../tokens/keys/keys.module';
import { SigningKeyStore } from '../../tokens/keys/signing-key.store';
import { TollgateMetrics } from './metrics';
import { MetricsListener } from './metrics.listener';

@Module({
  imports: [KeysModule, DatabaseMonitoringModule, AccessTokenModule],
  providers: [
    {
      provide: TollgateMetrics,
      inject: [SigningKeyStore, DatabasePoolStats, AccessTokenValidator],
      useFactory: (keys: SigningKeyStore, pool: DatabasePoolStats, accessTokens: AccessTokenValidator) =>
        new TollgateMetrics({
          signingKeyCreatedAt: () => keys.activeSigningKey?.createdAt,
          pool: () => pool.current(),
          verifiedTokenCache: () => accessTokens.cacheLookups,
        }),
    },
    MetricsListener,
  ],
  exports: [TollgateMetrics, MetricsListener],
})
export class MetricsModule {}
