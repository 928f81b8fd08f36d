import { Global, Module, OnApplicationShutdown, Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ClientAuthThrottle } from './client-auth.throttle';
import { MemoryRateLimiter } from './memory-rate-limiter';
import { RateLimiter } from './rate-limiter';
import { RedisRateLimiter } from './redis-rate-limiter';

@Global()
@Module({
  providers: [
    {
      provide: RateLimiter,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        config.rateLimits.redisUrl ? new RedisRateLimiter(config.rateLimits.redisUrl) : new MemoryRateLimiter(),
    },
    ClientAuthThrottle,
  ],
  exports: [ClientAuthThrottle],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(RateLimiter) private readonly limiter: RateLimiter) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.limiter instanceof RedisRateLimiter) await this.limiter.close();
  }
}
