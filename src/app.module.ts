import { DynamicModule, Module, type Type } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import type { Logger as PinoLogger } from 'pino';
import type { AuditSink } from './platform/audit/audit-event';
import { auditSinkOption } from './platform/audit/audit-sink.option';
import { ClientRegistrationModule } from './endpoints/client-registration/client-registration.module';
import { ClientsModule } from './identity/clients/clients.module';
import { APP_CONFIG, type AppConfig } from './platform/config/app.config';
import { ConfigModule, type AsyncConfigSource } from './platform/config/config.module';
import { BootDataSources } from './platform/database/boot-data-sources';
import { DatabaseMonitoringModule } from './platform/database/database-monitoring.module';
import { DatabaseOutageMonitor } from './platform/database/database-outage.monitor';
import type { TollgateMigration } from './platform/database/database.config';
import { DatabaseModule } from './platform/database/database.module';
import { DeviceAuthorizationEndpointModule } from './endpoints/device-authorization/device-authorization-endpoint.module';
import { DiscoveryModule } from './endpoints/discovery/discovery.module';
import { seedDemoData } from './demo/demo-data.seeder';
import { BUILT_IN_GRANTS } from './grants/built-in-grants';
import type { GrantModule } from './grants/grant-modules';
import { GrantsModule, type GrantRegistration } from './grants/grants.module';
import { HealthModule } from './endpoints/health/health.module';
import { FastifySetup } from './fastify-setup';
import { OAuthExceptionFilter } from './platform/http/oauth-exception.filter';
import { InteractionModule } from './endpoints/interaction/interaction.module';
import { IntrospectionModule } from './endpoints/introspection/introspection.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { PushedAuthorizationModule } from './endpoints/pushed-authorization/pushed-authorization.module';
import { RevocationModule } from './endpoints/revocation/revocation.module';
import { TokenModule } from './endpoints/token/token.module';
import { TrustedIssuersModule } from './identity/trusted-issuers/trusted-issuers.module';
import { UserInfoModule } from './endpoints/userinfo/userinfo.module';
import type { UserDirectory } from './identity/users/user-directory';
import { userDirectoryOption } from './identity/users/user-directory.option';

export interface AppOptions {
  /** Grants served besides the built-in ones (tests, embedding applications), with the modules they need. */
  readonly extraGrants?: GrantRegistration;
  /** Nest modules that provide and export grant validators: an application's own modules, container extensions (docs/extending.md). */
  readonly grantModules?: readonly GrantModule[];
  /** Where audit events go; through `logger` by default. */
  readonly auditSink?: AuditSink;
  /** The pino logger every log record goes through; JSON lines on stdout at LOG_LEVEL by default. */
  readonly logger?: PinoLogger;
  /** The users to sign in, instead of Tollgate's own table (docs/users.md). */
  readonly userDirectory?: Type<UserDirectory>;
  /** The application's migrations (e.g. its clients, from `tollgate client:migration`), applied with Tollgate's. */
  readonly migrations?: readonly TollgateMigration[];
}

/** The whole service: what `TollgateModule` imports, from a configuration value or from a factory. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppOptions = {}, dataSources?: BootDataSources): DynamicModule {
    return AppModule.compose(ConfigModule.forRoot(config, embeddingOptions(options)), options, dataSources);
  }

  static forRootAsync(config: AsyncConfigSource, options: AppOptions = {}): DynamicModule {
    return AppModule.compose(ConfigModule.forRootAsync(config, embeddingOptions(options)), options);
  }

  private static compose(config: DynamicModule, options: AppOptions, dataSources?: BootDataSources): DynamicModule {
    const grants = GrantsModule.register({
      validators: [...BUILT_IN_GRANTS.validators, ...(options.extraGrants?.validators ?? [])],
      imports: [...(BUILT_IN_GRANTS.imports ?? []), ...(options.extraGrants?.imports ?? [])],
      modules: options.grantModules,
    });
    return {
      module: AppModule,
      imports: [
        config,
        DatabaseModule.forRoot(dataSources, options.migrations, seedDemoData),
        grants,
        TokenModule.register(grants),
        DiscoveryModule.register(grants),
        ClientsModule,
        DatabaseMonitoringModule,
        InteractionModule,
        PushedAuthorizationModule,
        ClientRegistrationModule,
        DeviceAuthorizationEndpointModule,
        UserInfoModule,
        IntrospectionModule,
        RevocationModule,
        HealthModule,
        MetricsModule,
        TrustedIssuersModule,
      ],
      providers: [
        FastifySetup,
        // Global, as Nest hands the framework's own errors (unknown path, oversized body) to global filters only.
        {
          provide: APP_FILTER,
          inject: [APP_CONFIG, HttpAdapterHost, DatabaseOutageMonitor],
          useFactory: (appConfig: AppConfig, host: HttpAdapterHost, outages: DatabaseOutageMonitor) =>
            new OAuthExceptionFilter(appConfig.issuer, host.httpAdapter, outages),
        },
      ],
    };
  }
}

function embeddingOptions(options: AppOptions) {
  return [...userDirectoryOption(options.userDirectory), ...auditSinkOption(options.auditSink)];
}
