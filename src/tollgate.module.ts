import { DynamicModule, Module, type Type } from '@nestjs/common';
import { AppModule } from './app.module';
import type { AuditSink } from './platform/audit/audit-event';
import type { AppConfig } from './platform/config/app.config';
import type { AsyncConfigSource } from './platform/config/config.module';
import type { BootDataSources } from './platform/database/boot-data-sources';
import type { TollgateMigration } from './platform/database/database.config';
import type { GrantRegistration } from './grants/grants.module';
import type { GrantModule } from './grants/grant-modules';
import type { UserDirectory } from './identity/users/user-directory';

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
  readonly extraGrants?: GrantRegistration;
}

export type TollgateModuleAsyncOptions = TollgateExtensions & AsyncConfigSource;

/**
 * Tollgate as a Nest module: an application on a `FastifyAdapter` imports it and serves Tollgate's
 * endpoints beside its own; `createApp` is this module in an application of its own.
 */
@Module({})
export class TollgateModule {
  /** `standalone` is what `createApp` and the tests add (the boot's data sources, test grants); not for applications. */
  static forRoot({ config, grants, ...options }: TollgateModuleOptions, standalone: StandaloneOptions = {}): DynamicModule {
    const { dataSources, ...appOptions } = standalone;
    return { module: TollgateModule, imports: [AppModule.forRoot(config, { ...appOptions, ...options, grantModules: grants }, dataSources)] };
  }

  static forRootAsync({ grants, userDirectory, auditSink, migrations, ...config }: TollgateModuleAsyncOptions): DynamicModule {
    return { module: TollgateModule, imports: [AppModule.forRootAsync(config, { userDirectory, auditSink, migrations, grantModules: grants })] };
  }
}
