import type { CommandIo } from '../client-migration/client-migration.command';
import { writeGeneratedMigration } from '../client-migration/client-migration.command';
import { parseResourceMigrationArguments, RESOURCE_USAGE, ResourceMigrationUsageError } from './resource-migration-arguments';
import { renderResourceMigration } from './resource-migration-source';

/** `npm run resource:migration`: writes the migration and appends it to the index. Returns the exit code. */
export async function runResourceMigrationCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let command;
  try {
    command = parseResourceMigrationArguments(argv, io.defaultOutDir);
  } catch (error) {
    if (!(error instanceof ResourceMigrationUsageError)) throw error;
    io.stderr(`resource:migration: ${error.message}\n\n${RESOURCE_USAGE}\n`);
    return 2;
  }
  if (!command) {
    io.stderr(`${RESOURCE_USAGE}\n`);
    return 0;
  }
  const now = io.now?.() ?? new Date();
  await writeGeneratedMigration(renderResourceMigration(command.request, now.getTime()), command, io);
  return 0;
}
