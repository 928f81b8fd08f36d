import { DataSource, MigrationExecutor } from 'typeorm';
import { SchemaBehindError } from './schema-behind.error';

// An arbitrary constant naming Tollgate's migration lock among the database's advisory locks.
const MIGRATION_LOCK_ID = 7_340_112_233;

/**
 * Applies pending migrations in one transaction that first takes a transaction-scoped advisory
 * lock: instances started together against one database wait for each other, and the one that
 * comes second sees the migrations already applied.
 */
export async function runMigrationsExclusively(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'none';
    const applied = await executor.executePendingMigrations();
    await runner.commitTransaction();
    return applied.map((migration) => migration.name);
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    throw error;
  } finally {
    await runner.release();
  }
}

/** The migrations this build has that the database has not applied, oldest first. Reads only (no migrations table is created). */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  return (await new MigrationExecutor(dataSource).getPendingMigrations()).map((migration) => migration.name);
}

/** Throws SchemaBehindError when a migration of this build is not applied. */
export async function requireCurrentSchema(dataSource: DataSource): Promise<void> {
  const pending = await pendingMigrations(dataSource);
  if (pending.length > 0) throw new SchemaBehindError(pending);
}
