import { DynamicModule, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import type { AuditSink } from './platform/audit/audit-event';
import { auditSinkOption } from './platform/audit/audit-sink.option';
import { AuthorizationEndpointModule } from './endpoints/authorize/authorization-endpoint.module';
import { ClientRegistrationModule } from './endpoints/client-registration/client-registration.module';
import { ClientsModule } from './identity/clients/clients.module';
import { APP_CONFIG, type AppConfig } from './platform/config/app.config';
import { ConfigModule, type AsyncConfigSource } from './platform/config/config.module';
import type { BootDataSources } from './platform/database/boot-data-sources';
import { DatabaseMonitoringModule } from './platform/database/database-monitoring.module';
import { DatabaseOutageMonitor } from './platform/database/database-outage.monitor';
import type { TollgateMigration } from './platform/database/database.config';
import { DatabaseModule } from './platform/database/database.module';
import { DeviceAuthorizationEndpointModule } from './endpoints/device-authorization/device-authorization-endpoint.module';
import { DiscoveryModule } from './endpoints/discovery/discovery.module';
import { seedDemoData } from './demo/demo-data.seeder';
import { builtInGrantModules } from './grants/built-in-grants';
import type { GrantModule } from './grants/grant-modules';
import { GrantServicesModule } from './grants/grant-services.module';
import type { GrantValidatorClass } from './grants/grant-validator';
import { GrantsModule } from './grants/grants.module';
import { HealthModule } from './endpoints/health/health.module';
import { FastifySetup } from './fastify-setup';
import { OAuthExceptionFilter } from './platform/http/oauth-exception.filter';
import { InteractionModule } from './endpoints/interaction/interaction.module';
import { IntrospectionModule } from './endpoints/introspection/introspection.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { PushedAuthorizationModule } from './endpoints/pushed-authorization/pushed-authorization.module';
import { RevocationModule } from './endpoints/revocation/revocation.module';
import { SsfModule } from './endpoints/ssf/ssf.module';
import { TokenModule } from './endpoints/token/token.module';
import { TrustedIssuersModule } from './identity/trusted-issuers/trusted-issuers.module';
import { UserInfoModule } from './endpoints/userinfo/userinfo.module';
import type { UserDirectory } from './identity/users/user-directory';
import { userDirectoryOption } from './identity/users/user-directory.option';

/** What an application gives Tollgate besides its configuration (docs/extending.md). */
export interface TollgateExtensions {
  /** The application's modules that provide and export grant validators. */
  readonly grants?: readonly GrantModule[];
  /** The users to sign in, instead of Tollgate's own table (docs/users.md). */
  readonly userDirectory?: Type<UserDirectory>;
  /** Where audit events go; JSON lines on stdout by default. */
  readonly auditSink?: AuditSink;
  /** The application's migrations, e.g. its clients from `tollgate client:migration`; applied with Tollgate's at start. */
  readonly migrations?: readonly TollgateMigration[];
}

export interface TollgateModuleOptions extends TollgateExtensions {
  /** Usually `loadConfig()`: the environment, validated (docs/configuration.md). */
  readonly config: AppConfig;
}

interface StandaloneOptions {
  readonly dataSources?: BootDataSources;
  /** Grants served besides the built-in ones (tests), with the modules they need: made into one grant module. */
  readonly extraGrants?: ExtraGrants;
}

/** Test grants: the validators and the modules their constructors need. */
export interface ExtraGrants {
  readonly validators: readonly GrantValidatorClass[];
  readonly imports?: ModuleMetadata['imports'];
}

export type TollgateModuleAsyncOptions = TollgateExtensions & AsyncConfigSource;

/**
 * Tollgate as a Nest module, the whole service: an application on a `FastifyAdapter` imports it and
 * serves Tollgate's endpoints beside its own; `createApp` is this module in an application of its own.
 */
@Module({})
export class TollgateModule {
  /** `standalone` is what `createApp` and the tests add (the boot's data sources, test grants); not for applications. */
  static forRoot({ config, ...extensions }: TollgateModuleOptions, standalone: StandaloneOptions = {}): DynamicModule {
    return compose(ConfigModule.forRoot(config, embeddingOptions(extensions)), extensions, standalone);
  }

  static forRootAsync({ grants, userDirectory, auditSink, migrations, ...config }: TollgateModuleAsyncOptions): DynamicModule {
    const extensions = { grants, userDirectory, auditSink, migrations };
    return compose(ConfigModule.forRootAsync(config, embeddingOptions(extensions)), extensions);
  }
}

function compose(config: DynamicModule, extensions: TollgateExtensions, { dataSources, extraGrants }: StandaloneOptions = {}): DynamicModule {
  // The built-in grants, the application's and the tests' all take the one public path.
  const grants = GrantsModule.register({
    modules: [...builtInGrantModules(), ...(extensions.grants ?? []), ...(extraGrants ? [extraGrantsModule(extraGrants)] : [])],
  });
  return {
    module: TollgateModule,
    imports: [
      config,
      GrantServicesModule,
      DatabaseModule.forRoot(dataSources, extensions.migrations, seedDemoData),
      grants,
      TokenModule.register(grants),
      DiscoveryModule.register(grants),
      ClientsModule,
      DatabaseMonitoringModule,
      AuthorizationEndpointModule,
      InteractionModule,
      PushedAuthorizationModule,
      ClientRegistrationModule,
      DeviceAuthorizationEndpointModule,
      UserInfoModule,
      IntrospectionModule,
      RevocationModule,
      SsfModule,
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

@Module({})
class ExtraGrantsModule {}

function extraGrantsModule({ validators, imports = [] }: ExtraGrants): DynamicModule {
  return { module: ExtraGrantsModule, imports, providers: [...validators], exports: [...validators] };
}

function embeddingOptions({ userDirectory, auditSink }: TollgateExtensions) {
  return [...userDirectoryOption(userDirectory), ...auditSinkOption(auditSink)];
}
