import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { APPLIED_WHEN, type CommandIo } from '../client-migration/client-migration.command';
import { appendToMigrationIndex, type GeneratedMigration } from '../client-migration/client-migration-source';
import { checkJwksDocument } from '../client-migration/secretless-client-arguments';
import { ISSUER_USAGE, IssuerMigrationUsageError, parseIssuerMigrationArguments } from './issuer-migration-arguments';
import type { IssuerMigrationRequest } from './issuer-migration-arguments';
import { issuerAlreadyExists, renderIssuerMigration } from './issuer-migration-source';
import { CROSS_DOMAIN_USAGE, CrossDomainUsageError, isCrossDomainRequest, parseCrossDomainArguments } from './cross-domain-arguments';
import { renderCrossDomainMigration } from './cross-domain-source';

/** `npm run issuer:migration`: checks the service's database, then writes a migration registering or changing a trusted workload or subject issuer. Returns the exit code. */
export async function runIssuerMigrationCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  if (isCrossDomainRequest(argv)) return runCrossDomainMigration(argv, io);
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
  const jwksFile = request.kind === 'create' ? request.jwksFile : request.changes.jwksFile;
  if (jwksFile !== undefined) {
    const problems: string[] = [];
    let document: unknown;
    try {
      document = JSON.parse(await readFile(resolve(io.cwd, jwksFile), 'utf8'));
    } catch (error) {
      return usage(`--jwks-file: cannot read ${jwksFile} as JSON (${(error as Error).message})`);
    }
    // A SPIFFE bundle is a JWK Set with extra members; the keys are what is checked and stored.
    const checked = checkJwksDocument(document, problems);
    if (!checked) return usage(problems.join('\n'));
    const jwks = { ...(document as object), keys: checked.keys };
    request = request.kind === 'create' ? { ...request, jwks } : { ...request, changes: { ...request.changes, jwks } };
  }
  if (io.existing && !command.offline) {
    const found = await (await io.existing()).trustedIssuer(request.issuer);
    // A partner authorization server of that URL is no trusted issuer (docs/chaining.md).
    const problem = issuerProblem(request, found?.role === 'partner' ? undefined : found);
    if (problem) {
      io.stderr(`issuer:migration: ${problem}\nNothing was written.\n`);
      return 1;
    }
  }
  return writeMigration(renderIssuerMigration(request, now.getTime()), command, io);
}

/** `--authorization-grant` and `--partner` (docs/chaining.md); the generated migration checks the database itself when it runs. */
async function runCrossDomainMigration(argv: readonly string[], io: CommandIo): Promise<number> {
  let command;
  try {
    command = parseCrossDomainArguments(argv);
  } catch (error) {
    if (!(error instanceof CrossDomainUsageError)) throw error;
    io.stderr(`issuer:migration: ${error.message}\n\n${CROSS_DOMAIN_USAGE}\n`);
    return 2;
  }
  let { request } = command;
  if (request.kind === 'authorization-grant' && request.jwksFile !== undefined) {
    const problems: string[] = [];
    let document: unknown;
    try {
      document = JSON.parse(await readFile(resolve(io.cwd, request.jwksFile), 'utf8'));
    } catch (error) {
      io.stderr(`issuer:migration: --jwks-file: cannot read ${request.jwksFile} as JSON (${(error as Error).message})\n`);
      return 2;
    }
    const checked = checkJwksDocument(document, problems);
    if (!checked) {
      io.stderr(`issuer:migration: ${problems.join('\n')}\n`);
      return 2;
    }
    request = { ...request, jwks: { keys: checked.keys } };
  }
  return writeMigration(renderCrossDomainMigration(request, (io.now?.() ?? new Date()).getTime()), command, io);
}

/** Writes the migration into `--out-dir` and, unless `--no-index`, adds it to the folder's index.ts. */
async function writeMigration(
  migration: GeneratedMigration,
  command: { readonly outDir: string; readonly updateIndex: boolean },
  io: CommandIo,
): Promise<number> {
  const outDir = resolve(io.cwd, command.outDir);
  const file = join(outDir, `${migration.fileBase}.ts`);
  const indexFile = join(outDir, 'index.ts');
  const index = command.updateIndex ? appendToMigrationIndex(await readFile(indexFile, 'utf8'), migration) : undefined;
  await writeFile(file, migration.source, { flag: 'wx' });
  if (index !== undefined) await writeFile(indexFile, index);
  io.stderr(`Wrote ${file}${index !== undefined ? ` and added ${migration.className} to ${indexFile}` : ''}. ${APPLIED_WHEN}\n`);
  return 0;
}

/** What the service's database says about the request before anything is written. */
function issuerProblem(request: IssuerMigrationRequest, current: { readonly role: string } | undefined): string | undefined {
  if (request.kind === 'create') return current ? issuerAlreadyExists(request.issuer) : undefined;
  if (!current) return `Trusted issuer "${request.issuer}" is not registered: add it first with npm run issuer:migration (--kubernetes, --spiffe or --subject)`;
  if (request.changes.subject && current.role !== 'subject')
    return `"${request.issuer}" is a workload issuer: --audience, --user-claim, --identity-scope and --trusted-by apply to subject issuers`;
  return undefined;
}
