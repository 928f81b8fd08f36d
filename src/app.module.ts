import { DynamicModule, Module, type Type } from '@nestjs/common';
import type { AppConfig } from './config/app.config';
import { ConfigModule } from './config/config.module';
import type { AuditSink } from './audit/audit-event';
import { AuditModule } from './audit/audit.module';
import { DatabaseModule } from './database/database.module';
import { DiscoveryModule } from './discovery/discovery.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { BUILT_IN_GRANTS } from './grants/built-in-grants';
import type { GrantRegistration } from './grants/grants.module';
import { InteractionModule } from './interaction/interaction.module';
import { IntrospectionModule } from './introspection/introspection.module';
import { RevocationModule } from './revocation/revocation.module';
import { TokenModule } from './token/token.module';
import { TrustedIssuersModule } from './trusted-issuers/trusted-issuers.module';
import { UserInfoModule } from './userinfo/userinfo.module';
import type { UserDirectory } from './users/user-directory';

export interface AppOptions {
  /** Grants served besides the built-in ones (tests, embedding applications), with the modules they need. */
  readonly extraGrants?: GrantRegistration;
  /** Where audit events go; JSON lines on stdout by default. */
  readonly auditSink?: AuditSink;
  /** The users to sign in, instead of Tollgate's own table (docs/users.md). */
  readonly userDirectory?: Type<UserDirectory>;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, { userDirectory: options.userDirectory }),
        DatabaseModule.forRoot(),
        RateLimitModule,
        AuditModule.register(options.auditSink),
        TokenModule.register({
          validators: [...BUILT_IN_GRANTS.validators, ...(options.extraGrants?.validators ?? [])],
          imports: [...(BUILT_IN_GRANTS.imports ?? []), ...(options.extraGrants?.imports ?? [])],
        }),
        DiscoveryModule,
        InteractionModule,
        UserInfoModule,
        IntrospectionModule,
        RevocationModule,
        HealthModule,
        MetricsModule,
        TrustedIssuersModule,
      ],
    };
  }
}
