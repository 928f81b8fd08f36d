import { DynamicModule, Logger, Module } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { ConfigType } from '../config/config-slice';
import { databaseConfig } from '../config/config.slices';
import { BootDataSources } from './boot-data-sources';
import { connectWithRetries, maskedDatabaseUrl } from './database-connection';
import { DatabaseMonitoringModule } from './database-monitoring.module';
import { migrations } from '../../../migrations';
import { dataSourceOptions, type TollgateMigration } from './database.config';
import { EMBEDDED_POOL_SIZE, EmbeddedPostgres } from './embedded-postgres';
import { requireCurrentSchema, runMigrationsExclusively } from './migration-runner';

@Module({ providers: [EmbeddedPostgres], exports: [EmbeddedPostgres] })
class EmbeddedPostgresModule {}

/** The set of migrations, as a short name: the embedded database's migrated template is kept per set. */
function schemaName(extraMigrations: readonly TollgateMigration[]): string {
  return createHash('sha256')
    .update([...migrations, ...extraMigrations].map((migration) => migration.name).join(','))
    .digest('base64url')
    .slice(0, 16);
}

/**
 * What opening the database does with this build's migrations: the service applies the pending ones;
 * an operator command never does (docs/operations.md#migrations): it requires them all applied, or,
 * for `tollgate migrate` itself, leaves the schema as it is.
 */
export type SchemaPolicy = 'apply' | 'require-current' | 'as-is';

/** PostgreSQL by `DATABASE_URL`, or the embedded PGlite; migrated (and seeded) before anything uses it. */
@Module({})
export class DatabaseModule {
  /** `seedDemo`: applies the demo data set when SEED_DEMO=true (the application passes src/demo's; commands never seed). */
  static forRoot(
    boot = new BootDataSources(),
    extraMigrations: readonly TollgateMigration[] = [],
    seedDemo?: (dataSource: DataSource) => Promise<void>,
    schema: SchemaPolicy = 'apply',
  ): DynamicModule {
    const logger = new Logger('Database');
    let seed = false;
    let where = 'the embedded database';
    let embeddedDatabase: EmbeddedPostgres | undefined;
    return {
      module: DatabaseModule,
      exports: [DatabaseMonitoringModule],
      imports: [
        DatabaseMonitoringModule,
        TypeOrmModule.forRootAsync({
          imports: [EmbeddedPostgresModule],
          inject: [databaseConfig.KEY, EmbeddedPostgres],
          useFactory: async (config: ConfigType<typeof databaseConfig>, embedded: EmbeddedPostgres) => {
            seed = config.seedDemo;
            if (config.databaseUrl) where = `DATABASE_URL=${maskedDatabaseUrl(config.databaseUrl)}`;
            if (!config.databaseUrl) embeddedDatabase = embedded;
            const options = config.databaseUrl
              ? dataSourceOptions(config.databaseUrl, config.databasePoolSize, extraMigrations)
              : dataSourceOptions(await embedded.start(config.dataDir, schemaName(extraMigrations)), EMBEDDED_POOL_SIZE, extraMigrations);
            // Retries are connectWithRetries' (one line each, no stack trace), not TypeOrmModule's.
            // Each module registers its own entities (TypeOrmModule.forFeature in the module that owns them).
            return { ...options, autoLoadEntities: true, toRetry: () => false };
          },
          dataSourceFactory: async (options?: DataSourceOptions) => {
            // A boot that has already failed elsewhere does not retry (BootDataSources).
            const connect = () => boot.open(() => new DataSource(options!).initialize());
            const dataSource = await connectWithRetries(connect, where, logger, boot.isAbandoned ? 1 : undefined);
            if (schema === 'apply') {
              const applied = await runMigrationsExclusively(dataSource);
              if (applied.length > 0) logger.log(`Applied migrations: ${applied.join(', ')}`);
              await embeddedDatabase?.saveSchemaTemplate();
            } else if (schema === 'require-current') {
              await requireCurrentSchema(dataSource);
            }
            if (seed && seedDemo) {
              await seedDemo(dataSource);
              // At every start, not only the first: the demo secrets and passwords are public (docs/demo-data.md).
              logger.warn('SEED_DEMO=true: the demo data set is applied; its client secrets and user passwords are public. Never expose this instance.');
            }
            return dataSource;
          },
        }),
      ],
    };
  }
}
