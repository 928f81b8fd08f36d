import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { hashClientSecret } from '../../src/identity/clients/client-secret.verifier';
import { ClientMigrationUsageError, parseClientMigrationArguments, USAGE } from './client-migration-arguments';
import type { Inventory } from '../inventory/inventory';
import { appendToMigrationIndex, renderClientMigration, type GeneratedMigration } from './client-migration-source';
import { requestProblems } from './existing-client-check';
import { checkJwksDocument } from './secretless-client-arguments';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly now?: () => Date;
  /** Where migrations are written without --out-dir (`tollgate` reads MIGRATIONS_OUT_DIR); `migrations` by default. */
  readonly defaultOutDir?: string;
  /**
   * What exists in the database the service uses, checked before anything is written or printed
   * (`tollgate` opens it on first use); without it, or with --offline, only the migration checks, when applied.
   */
  readonly existing?: () => Promise<ExistingRecords>;
}

export type ExistingRecords = Pick<Inventory, 'client' | 'resource' | 'resources' | 'trustedIssuer'>;

/**
 * `npm run client:migration`: writes the migration, appends it to the index, and prints a new
 * secret once, alone on stdout (everything else goes to stderr), so that
 * `SECRET=$(npm run -s client:migration -- ...)` captures exactly the secret. Returns the exit code.
 */
export async function runClientMigrationCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const now = io.now?.() ?? new Date();
  let command;
  try {
    command = parseClientMigrationArguments(argv, now, io.defaultOutDir);
  } catch (error) {
    if (!(error instanceof ClientMigrationUsageError)) throw error;
    io.stderr(`client:migration: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (!command) {
    io.stderr(`${USAGE}\n`);
    return 0;
  }
  let { request } = command;
  const jwksFile = request.kind === 'create' ? request.jwksFile : request.kind === 'change' ? request.changes.jwksFile : undefined;
  if (jwksFile !== undefined) {
    const problems: string[] = [];
    const document = await readJson(resolve(io.cwd, jwksFile), problems);
    const jwks = problems.length === 0 ? checkJwksDocument(document, problems) : undefined;
    if (!jwks) {
      io.stderr(`client:migration: ${problems.join('\n')}\n`);
      return 2;
    }
    if (request.kind === 'create') request = { ...request, jwks };
    else if (request.kind === 'change') request = { ...request, changes: { ...request.changes, jwks } };
  }
  if (io.existing && !command.offline) {
    const problems = requestProblems(request, await (await io.existing()).client(request.clientId));
    if (problems.length > 0) {
      io.stderr(`client:migration: ${problems.join('\n')}\nNothing was written.\n`);
      return 1;
    }
  }
  const secretless = request.kind === 'create' && (request.jwks !== undefined || request.jwksUri !== undefined || request.workload !== undefined);
  // RFC 6749 §10.10: 256 bits from the CSPRNG; only its hash is written anywhere.
  const addsSecret = (request.kind === 'create' && !secretless && !request.browser.public) || request.kind === 'add-secret';
  const withSecret = request.kind === 'create' || request.kind === 'add-secret' ? request : undefined;
  const secret = addsSecret ? randomBytes(32).toString('base64url') : undefined;
  const secretId = addsSecret ? randomUUID() : undefined;
  const withDescription =
    addsSecret && withSecret
      ? { ...withSecret, secretDescription: withSecret.secretDescription ?? `client:migration ${now.toISOString().slice(0, 10)}` }
      : request;
  const migration = renderClientMigration(withDescription, { timestamp: now.getTime(), secretHash: secret && hashClientSecret(secret), secretId });
  await writeGeneratedMigration(migration, command, io);
  if (secret) {
    io.stderr(`The new secret's id is ${secretId} (for --remove-secret later; the id is not secret).\n`);
    io.stderr(`The new secret of client "${request.clientId}" follows on stdout. It is shown only now and stored nowhere: hand it over securely.\n`);
    io.stdout(`${secret}\n`);
  }
  if (request.kind === 'add-secret') {
    // Written before this migration is applied, so the new secret is created after this instant.
    io.stderr(
      `Once every holder uses the new secret, end the older ones with:\n  npm run client:migration -- --client-id ${request.clientId} --expire-secrets-before ${now.toISOString()}\n`,
    );
  }
  return 0;
}

/** What an operator is told after a migration is written (docs/operations.md#migrations). */
export const APPLIED_WHEN =
  'It is applied when Tollgate starts with it, or by `tollgate migrate` (npm run migrate); until then the other operator commands on that database stop (exit code 3).';

/** Writes the file and adds it to `<outDir>/index.ts` (unless told not to); nothing is written when the index cannot take it. */
export async function writeGeneratedMigration(
  migration: GeneratedMigration,
  command: { readonly outDir: string; readonly updateIndex: boolean },
  io: Pick<CommandIo, 'stderr' | 'cwd'>,
): Promise<void> {
  const outDir = resolve(io.cwd, command.outDir);
  const file = join(outDir, `${migration.fileBase}.ts`);
  const indexFile = join(outDir, 'index.ts');
  const existing = command.updateIndex ? await readFile(indexFile, 'utf8').catch(missingAsUndefined) : undefined;
  if (command.updateIndex && existing === undefined)
    io.stderr(`${shown(io.cwd, indexFile)} does not exist: add ${migration.className} to your migrations/index.ts.\n`);
  const index = existing === undefined ? undefined : appendToMigrationIndex(existing, migration);
  await mkdir(outDir, { recursive: true });
  await writeFile(file, migration.source, { flag: 'wx' });
  if (index !== undefined) await writeFile(indexFile, index);
  io.stderr(`Wrote ${shown(io.cwd, file)}${index !== undefined ? ` and added ${migration.className} to ${shown(io.cwd, indexFile)}` : ''}.\n`);
  io.stderr(`${APPLIED_WHEN}\n`);
}

function missingAsUndefined(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}

async function readJson(path: string, problems: string[]): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    problems.push(`--jwks-file: cannot read ${path} as JSON (${(error as Error).message})`);
    return undefined;
  }
}

/** Relative to the working directory when inside it, else absolute. */
function shown(cwd: string, path: string): string {
  const relativePath = relative(cwd, path);
  return relativePath.startsWith('..') || relativePath === '' ? path : relativePath;
}
