import { DataSource, MigrationExecutor } from 'typeorm';

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
