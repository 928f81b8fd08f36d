import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CommandIo } from '../client-migration/client-migration.command';
import { appendToMigrationIndex } from '../client-migration/client-migration-source';
import { checkJwksDocument } from '../client-migration/secretless-client-arguments';
import { ISSUER_USAGE, IssuerMigrationUsageError, parseIssuerMigrationArguments } from './issuer-migration-arguments';
import { renderIssuerMigration } from './issuer-migration-source';

/** `npm run issuer:migration`: writes a migration registering (or disabling) a trusted workload or subject issuer. Returns the exit code. */
export async function runIssuerMigrationCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const now = io.now?.() ?? new Date();
  const usage = (message: string) => {
    io.stderr(`issuer:migration: ${message}\n\n${ISSUER_USAGE}\n`);
    return 2;
  };
  let command;
  try {
    command = parseIssuerMigrationArguments(argv);
  } catch (error) {
    if (!(error instanceof IssuerMigrationUsageError)) throw error;
    return usage(error.message);
  }
  if (!command) {
    io.stderr(`${ISSUER_USAGE}\n`);
    return 0;
  }
  let { request } = command;
  if (request.kind === 'create' && request.jwksFile !== undefined) {
    const problems: string[] = [];
    let document: unknown;
    try {
      document = JSON.parse(await readFile(resolve(io.cwd, request.jwksFile), 'utf8'));
    } catch (error) {
      return usage(`--jwks-file: cannot read ${request.jwksFile} as JSON (${(error as Error).message})`);
    }
    // A SPIFFE bundle is a JWK Set with extra members; the keys are what is checked and stored.
    const jwks = checkJwksDocument(document, problems);
    if (!jwks) return usage(problems.join('\n'));
    request = { ...request, jwks: { ...(document as object), keys: jwks.keys } };
  }
  const migration = renderIssuerMigration(request, now.getTime());
  const outDir = resolve(io.cwd, command.outDir);
  const file = join(outDir, `${migration.fileBase}.ts`);
  const indexFile = join(outDir, 'index.ts');
  const index = command.updateIndex ? appendToMigrationIndex(await readFile(indexFile, 'utf8'), migration) : undefined;
  await writeFile(file, migration.source, { flag: 'wx' });
  if (index !== undefined) await writeFile(indexFile, index);
  io.stderr(`Wrote ${file}${index !== undefined ? ` and added ${migration.className} to ${indexFile}` : ''}. It is applied at the next start of Tollgate.\n`);
  return 0;
}
