import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/app.config';
import { ConfigModule } from './config/config.module';
import type { AuditSink } from './audit/audit-event';
import { AuditModule } from './audit/audit.module';
import { DatabaseModule } from './database/database.module';
import { DiscoveryModule } from './discovery/discovery.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import type { GrantValidatorClass } from './grants/grant-validator';
import { ClientCredentialsGrantValidator } from './grants/client-credentials.grant-validator';
import { DelegationGrantValidator } from './grants/delegation.grant-validator';
import { PasswordGrantValidator } from './grants/password.grant-validator';
import { RefreshTokenGrantValidator } from './grants/refresh-token.grant-validator';
import { TokenExchangeGrantValidator } from './grants/token-exchange.grant-validator';
import { IntrospectionModule } from './introspection/introspection.module';
import { RevocationModule } from './revocation/revocation.module';
import { TokenModule } from './token/token.module';
import { UserInfoModule } from './userinfo/userinfo.module';

/** The grants the token endpoint serves. To add a grant, write its validator and list it here. */
export const GRANT_VALIDATOR_CLASSES: readonly GrantValidatorClass[] = [
  ClientCredentialsGrantValidator,
  PasswordGrantValidator,
  DelegationGrantValidator,
  RefreshTokenGrantValidator,
  TokenExchangeGrantValidator,
];

export interface AppOptions {
  /** Grant validators served besides the built-in ones (tests, embedding applications). */
  readonly extraGrantValidators?: readonly GrantValidatorClass[];
  /** Where audit events go; JSON lines on stdout by default. */
  readonly auditSink?: AuditSink;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(),
        RateLimitModule,
        AuditModule.register(options.auditSink),
        TokenModule.register([...GRANT_VALIDATOR_CLASSES, ...(options.extraGrantValidators ?? [])]),
        DiscoveryModule,
        UserInfoModule,
        IntrospectionModule,
        RevocationModule,
        HealthModule,
        MetricsModule,
      ],
    };
  }
}
