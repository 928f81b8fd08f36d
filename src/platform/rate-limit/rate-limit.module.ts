import { Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import type { RateLimitConfig } from '../config/app.config';
import type { ConfigType } from '../config/config-slice';
import { agentsConfig, throttlingConfig } from '../config/config.slices';
import { MetricsModule } from '../metrics/metrics.module';
import { TollgateMetrics } from '../metrics/metrics';
import { ClientAuthThrottle } from './client-auth.throttle';
import { CounterStore } from './counter-store';
import { FailOpenCounterStore } from './fail-open-counter-store';
import { MemoryCounterStore } from './memory-counter-store';
import { RedisCounterStore } from './redis-counter-store';
import { MetadataDocumentThrottle } from './metadata-document.throttle';
import { RegistrationThrottle } from './registration.throttle';
import { SignInThrottle } from './sign-in.throttle';
import { UserCodeThrottle } from './user-code.throttle';

async function counterStore(limits: RateLimitConfig, metrics: TollgateMetrics): Promise<CounterStore> {
  const memory = new MemoryCounterStore(limits.memoryKeys);
  metrics.throttleStoreShared.set(0);
  if (!limits.redisUrl) return memory;
  const logger = new Logger('Throttling');
  const redis = new RedisCounterStore(limits.redisUrl, limits.redisTimeoutMs);
  // Not fatal: until Redis answers, counting falls back to memory (and says so).
  if (await redis.connected(2000)) metrics.throttleStoreShared.set(1);
  return new FailOpenCounterStore(redis, memory, {
    sharedStoreLost(reason) {
      metrics.throttleStoreFallbacks.inc();
      metrics.throttleStoreShared.set(0);
      logger.warn(`Redis unavailable (${reason}): counting in this instance's memory until it answers again`);
    },
    sharedStoreRestored() {
      metrics.throttleStoreShared.set(1);
      logger.log('Redis answers again: throttling counters are shared again');
    },
  });
}

/** Throttling of client authentication, user sign-in, user-code entry, client registration and new metadata documents (docs/throttling.md). */
@Module({
  imports: [MetricsModule],
  providers: [
    { provide: CounterStore, inject: [throttlingConfig.KEY, TollgateMetrics], useFactory: counterStore },
    {
      provide: ClientAuthThrottle,
      inject: [CounterStore, throttlingConfig.KEY],
      useFactory: (store: CounterStore, limits: ConfigType<typeof throttlingConfig>) =>
        new ClientAuthThrottle(store, {
          windowSeconds: limits.windowSeconds,
          failuresPerClient: limits.authFailures,
          failuresWithoutClient: limits.anonymousAuthFailures,
          perClient: limits.perClient,
          perAddress: limits.perAddress,
        }),
    },
    {
      provide: SignInThrottle,
      inject: [CounterStore, throttlingConfig.KEY],
      useFactory: (store: CounterStore, limits: ConfigType<typeof throttlingConfig>) =>
        new SignInThrottle(store, {
          failuresBeforeBackOff: limits.signInFailures,
          backOffSeconds: limits.signInBackOffSeconds,
          maxBackOffSeconds: limits.signInMaxBackOffSeconds,
          addressFailures: limits.signInAddressFailures,
          addressWindowSeconds: limits.signInAddressWindowSeconds,
        }),
    },
    { provide: UserCodeThrottle, inject: [CounterStore], useFactory: (store: CounterStore) => new UserCodeThrottle(store) },
    {
      provide: RegistrationThrottle,
      inject: [CounterStore, throttlingConfig.KEY, agentsConfig.KEY],
      useFactory: (store: CounterStore, limits: ConfigType<typeof throttlingConfig>, agents: ConfigType<typeof agentsConfig>) =>
        new RegistrationThrottle(store, { perAddress: agents.registrationsPerAddress, windowSeconds: limits.windowSeconds }),
    },
    {
      provide: MetadataDocumentThrottle,
      inject: [CounterStore, throttlingConfig.KEY, agentsConfig.KEY],
      useFactory: (store: CounterStore, limits: ConfigType<typeof throttlingConfig>, agents: ConfigType<typeof agentsConfig>) =>
        new MetadataDocumentThrottle(store, { perAddress: agents.metadataDocumentsPerAddress, windowSeconds: limits.windowSeconds }),
    },
  ],
  exports: [ClientAuthThrottle, SignInThrottle, UserCodeThrottle, RegistrationThrottle, MetadataDocumentThrottle],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(CounterStore) private readonly store: CounterStore) {}

  onApplicationShutdown(): void {
    if (this.store instanceof FailOpenCounterStore) this.store.close();
  }
}
