import type { DataSourceOptions, MigrationInterface } from 'typeorm';
import { migrations } from '../../../migrations';
import { TypeOrmQueryLogger } from './typeorm-query.logger';

/** A TypeORM migration class, e.g. one `tollgate client:migration` wrote (docs/extending.md). */
export type TollgateMigration = new () => MigrationInterface;

/** `extraMigrations`: an embedding application's own, applied with Tollgate's in timestamp order. */
export function dataSourceOptions(url: string, poolSize: number, extraMigrations: readonly TollgateMigration[] = []): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [],
    migrations: [...migrations, ...extraMigrations],
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    uuidExtension: 'pgcrypto',
    poolSize,
    logging: ['error'],
    logger: new TypeOrmQueryLogger(),
    extra: {
      // A bounded wait for a pooled connection: an unreachable database fails fast (503), never hangs.
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30000,
      statement_timeout: 10000,
      // Client-side bound too, for a database that stops answering without closing the connection.
      query_timeout: 12000,
    },
  };
}
