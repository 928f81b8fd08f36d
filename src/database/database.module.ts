import { DynamicModule, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { ConfigType } from '../config/config-slice';
import { databaseConfig } from '../config/config.slices';
import { BootDataSources } from './boot-data-sources';
import { DatabaseMonitoringModule } from './database-monitoring.module';
import { dataSourceOptions, type TollgateMigration } from './database.config';
import { seedDemoData } from './demo-data.seeder';
import { EMBEDDED_POOL_SIZE, EmbeddedPostgres } from './embedded-postgres';
import { runMigrationsExclusively } from './migration-runner';

@Module({ providers: [EmbeddedPostgres], exports: [EmbeddedPostgres] })
class EmbeddedPostgresModule {}

/** PostgreSQL by `DATABASE_URL`, or the embedded PGlite; migrated (and seeded) before anything uses it. */
@Module({})
export class DatabaseModule {
  static forRoot(boot = new BootDataSources(), extraMigrations: readonly TollgateMigration[] = []): DynamicModule {
    const logger = new Logger('Database');
    let seed = false;
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
            const options = config.databaseUrl
              ? dataSourceOptions(config.databaseUrl, config.databasePoolSize, extraMigrations)
              : dataSourceOptions(await embedded.start(config.dataDir), EMBEDDED_POOL_SIZE, extraMigrations);
            // A boot that has already failed elsewhere does not retry (BootDataSources).
            return { ...options, retryAttempts: boot.isAbandoned ? 0 : 3, retryDelay: 1000 };
          },
          dataSourceFactory: async (options?: DataSourceOptions) => {
            const dataSource = await boot.open(() => new DataSource(options!).initialize());
            const applied = await runMigrationsExclusively(dataSource);
            if (applied.length > 0) logger.log(`Applied migrations: ${applied.join(', ')}`);
            if (seed) {
              await seedDemoData(dataSource);
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
