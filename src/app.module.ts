import { DynamicModule, Module, type Type } from '@nestjs/common';
import type { AppConfig } from './config/app.config';
import { ConfigModule } from './config/config.module';
import type { Logger as PinoLogger } from 'pino';
import type { AuditSink } from './audit/audit-event';
import { auditSinkOption } from './audit/audit-sink.option';
import { BootDataSources } from './database/boot-data-sources';
import { DatabaseModule } from './database/database.module';
import { DeviceAuthorizationEndpointModule } from './device-authorization-endpoint/device-authorization-endpoint.module';
import { DiscoveryModule } from './discovery/discovery.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { BUILT_IN_GRANTS } from './grants/built-in-grants';
import { GrantsModule, type GrantRegistration } from './grants/grants.module';
import { InteractionModule } from './interaction/interaction.module';
import { IntrospectionModule } from './introspection/introspection.module';
import { PushedAuthorizationModule } from './pushed-authorization/pushed-authorization.module';
import { RevocationModule } from './revocation/revocation.module';
import { TokenModule } from './token/token.module';
import { TrustedIssuersModule } from './trusted-issuers/trusted-issuers.module';
import { UserInfoModule } from './userinfo/userinfo.module';
import type { UserDirectory } from './users/user-directory';
import { userDirectoryOption } from './users/user-directory.option';

export interface AppOptions {
  /** Grants served besides the built-in ones (tests, embedding applications), with the modules they need. */
  readonly extraGrants?: GrantRegistration;
  /** Where audit events go; through `logger` by default. */
  readonly auditSink?: AuditSink;
  /** The pino logger every log record goes through; JSON lines on stdout at LOG_LEVEL by default. */
  readonly logger?: PinoLogger;
  /** The users to sign in, instead of Tollgate's own table (docs/users.md). */
  readonly userDirectory?: Type<UserDirectory>;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppOptions = {}, dataSources?: BootDataSources): DynamicModule {
    const grants = GrantsModule.register({
      validators: [...BUILT_IN_GRANTS.validators, ...(options.extraGrants?.validators ?? [])],
      imports: [...(BUILT_IN_GRANTS.imports ?? []), ...(options.extraGrants?.imports ?? [])],
    });
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, [...userDirectoryOption(options.userDirectory), ...auditSinkOption(options.auditSink)]),
        DatabaseModule.forRoot(dataSources),
        TokenModule.register(grants),
        DiscoveryModule.register(grants),
        InteractionModule,
        PushedAuthorizationModule,
        DeviceAuthorizationEndpointModule,
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
