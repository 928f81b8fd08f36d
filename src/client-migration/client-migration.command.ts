import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { hashClientSecret } from '../clients/client-secret.verifier';
import { ClientMigrationUsageError, parseClientMigrationArguments, USAGE } from './client-migration-arguments';
import { appendToMigrationIndex, renderClientMigration } from './client-migration-source';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly now?: () => Date;
}

/**
 * `npm run client:migration`: writes the migration, appends it to the index, and prints a new
 * secret once, alone on stdout (everything else goes to stderr), so that
 * `SECRET=$(npm run -s client:migration -- ...)` captures exactly the secret. Returns the exit code.
 */
export async function runClientMigrationCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const now = io.now?.() ?? new Date();
  let command;
  try {
    command = parseClientMigrationArguments(argv, now);
  } catch (error) {
    if (!(error instanceof ClientMigrationUsageError)) throw error;
    io.stderr(`client:migration: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (!command) {
    io.stderr(`${USAGE}\n`);
    return 0;
  }
  const { request } = command;
  // RFC 6749 §10.10: 256 bits from the CSPRNG; only its hash is written anywhere.
  const secret = request.kind === 'disable' ? undefined : randomBytes(32).toString('base64url');
  const withDescription =
    request.kind === 'disable' ? request : { ...request, secretDescription: request.secretDescription ?? `client:migration ${now.toISOString().slice(0, 10)}` };
  const migration = renderClientMigration(withDescription, { timestamp: now.getTime(), secretHash: secret && hashClientSecret(secret) });
  const outDir = resolve(io.cwd, command.outDir);
  const file = join(outDir, `${migration.fileBase}.ts`);
  const indexFile = join(outDir, 'index.ts');
  // Checked before anything is written, so a failure leaves no half-registered migration.
  const index = command.updateIndex ? appendToMigrationIndex(await readFile(indexFile, 'utf8'), migration) : undefined;
  await writeFile(file, migration.source, { flag: 'wx' });
  if (index !== undefined) await writeFile(indexFile, index);

  io.stderr(`Wrote ${shown(io.cwd, file)}${index !== undefined ? ` and added ${migration.className} to ${shown(io.cwd, indexFile)}` : ''}.\n`);
  io.stderr('It is applied at the next start of Tollgate (or with the migrations of your deployment).\n');
  if (secret) {
    io.stderr(`The new secret of client "${request.clientId}" follows on stdout. It is shown only now and stored nowhere: hand it over securely.\n`);
    io.stdout(`${secret}\n`);
  }
  return 0;
}

/** Relative to the working directory when inside it, else absolute. */
function shown(cwd: string, path: string): string {
  const relativePath = relative(cwd, path);
  return relativePath.startsWith('..') || relativePath === '' ? path : relativePath;
}
