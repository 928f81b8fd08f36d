import { runClientMigrationCommand } from '../src/client-migration/client-migration.command';

// `npm run client:migration -- --help` for the options; see README "Operators".
runClientMigrationCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`client:migration: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
