import 'reflect-metadata';
import { SchemaMigrations, SchemaMigrationsModule } from '../src/platform/database/schema-migrations';
import { SCHEMA_BEHIND_EXIT_CODE } from './exit-codes';
import { openOperatorContext } from './operator-context';

const MIGRATE_USAGE = `Usage: tollgate migrate [--check]   (from a checkout: npm run migrate [-- --check])
Applies the migrations of this build that the database has not applied yet (Tollgate's, those
client:migration, resource:migration and issuer:migration wrote, and those of the files in
TOLLGATE_EXTENSIONS), in one transaction, as the service does at start. The other operator commands never apply one: they stop with exit code 3 until this runs.
  --check   apply nothing: list the pending migrations; exit code 3 when there are any, else 0.
Reads the same environment as the service (DATABASE_URL, DATA_DIR).`;

/** `tollgate migrate`: the one operator command that changes the schema. Returns the exit code. */
export async function runMigrateCommand(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`${unknown.includes('--help') ? '' : `migrate: unknown argument ${unknown[0]}\n`}${MIGRATE_USAGE}\n`);
    return unknown.includes('--help') ? 0 : 2;
  }
  const opened = await openOperatorContext([SchemaMigrationsModule], 'as-is', { extensionMigrations: true });
  if (!opened) return 1;
  try {
    const migrations = opened.app.get(SchemaMigrations);
    if (argv.includes('--check')) {
      const pending = await migrations.pending();
      process.stdout.write(pending.length === 0 ? 'No pending migration.\n' : `Pending: ${pending.join(', ')}\n`);
      return pending.length === 0 ? 0 : SCHEMA_BEHIND_EXIT_CODE;
    }
    const applied = await migrations.apply();
    process.stdout.write(applied.length === 0 ? "No pending migration: the schema is at this build's latest.\n" : `Applied: ${applied.join(', ')}\n`);
    return 0;
  } finally {
    await opened.app.close();
  }
}
