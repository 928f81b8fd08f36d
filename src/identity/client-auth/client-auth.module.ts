import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit/audit.module';
import type { ConfigType } from '../../platform/config/config-slice';
import { throttlingConfig } from '../../platform/config/config.slices';
import { ClientsModule } from '../clients/clients.module';
import { MetricsModule } from '../../platform/metrics/metrics.module';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { TrustedIssuersModule } from '../trusted-issuers/trusted-issuers.module';
import { AssertionReplayGuard } from './assertion-replay.guard';
import { CachedAssertionReplayGuard } from './cached-assertion-replay.guard';
import { CLIENT_AUTH_METHODS } from './client-auth-method';
import { ClientAuthGuard } from './client-auth.guard';
import { ClientAuthentication } from './client-authentication';
import { ClientAuthenticator } from './client-authenticator';
import { ClientSecretBasicMethod, ClientSecretPostMethod } from './client-secret.methods';
import { NoneMethod } from './none.method';
import { ClientAssertionJtiEntity } from './persistence/client-assertion-jti.entity';
import { PostgresAssertionReplayGuard } from './persistence/postgres-assertion-replay.guard';
import { PrivateKeyJwtMethod } from './private-key-jwt.method';
import { RedisAssertionIdCache } from './redis-assertion-id.cache';
import { WorkloadIdentityMethod } from './workload.method';

const METHODS = [ClientSecretBasicMethod, ClientSecretPostMethod, PrivateKeyJwtMethod, WorkloadIdentityMethod, NoneMethod];

/**
 * Client authentication for the token, introspection and revocation endpoints (docs/client-authentication.md).
 * Guards are built in the module of the controller that uses them, so the guard's own dependencies are exported too.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ClientAssertionJtiEntity]), ClientsModule, TrustedIssuersModule, MetricsModule, AuditModule, RateLimitModule],
  providers: [
    ...METHODS,
    { provide: CLIENT_AUTH_METHODS, useFactory: (...methods: unknown[]) => methods, inject: METHODS },
    {
      provide: AssertionReplayGuard,
      inject: [throttlingConfig.KEY, PostgresAssertionReplayGuard],
      useFactory: ({ redisUrl }: ConfigType<typeof throttlingConfig>, postgres: PostgresAssertionReplayGuard) =>
        // PostgreSQL is the record either way; Redis in front refuses remembered replays without a query.
        redisUrl ? new CachedAssertionReplayGuard(new RedisAssertionIdCache(redisUrl), postgres) : postgres,
    },
    PostgresAssertionReplayGuard,
    ClientAuthenticator,
    ClientAuthentication,
    ClientAuthGuard,
  ],
  exports: [ClientAuthenticator, ClientAuthentication, ClientAuthGuard, AssertionReplayGuard, MetricsModule, AuditModule, RateLimitModule],
})
export class ClientAuthModule implements OnApplicationShutdown {
  constructor(@Inject(AssertionReplayGuard) private readonly replays: AssertionReplayGuard) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.replays instanceof CachedAssertionReplayGuard) await this.replays.close();
  }
}
