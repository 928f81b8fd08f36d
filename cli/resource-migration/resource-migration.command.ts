import type { CommandIo } from '../client-migration/client-migration.command';
import type { ResourceView } from '../inventory/inventory';
import { writeGeneratedMigration } from '../client-migration/client-migration.command';
import { resourceAlreadyExists, uriTaken } from './resource-change';
import { parseResourceMigrationArguments, RESOURCE_USAGE, ResourceMigrationUsageError, type ResourceMigrationRequest } from './resource-migration-arguments';
import { renderResourceMigration } from './resource-migration-source';
import { sharedScopeWarnings, type ResourceOutcome } from './shared-scopes';

/** `npm run resource:migration`: checks the service's database, writes the migration and appends it to the index. Returns the exit code. */
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
  if (io.existing && !command.offline) {
    const existing = await io.existing();
    const current = await existing.resource(command.request.name);
    const resources = await existing.resources();
    const problem = resourceProblem(command.request, current) ?? uriProblem(command.request, resources);
    if (problem) {
      io.stderr(`resource:migration: ${problem}\nNothing was written.\n`);
      return 1;
    }
    const outcome = resourceOutcome(command.request, current);
    for (const warning of outcome ? sharedScopeWarnings(outcome, resources) : []) io.stderr(`resource:migration: ${warning}\n`);
  }
  const now = io.now?.() ?? new Date();
  await writeGeneratedMigration(renderResourceMigration(command.request, now.getTime()), command, io);
  return 0;
}

function resourceProblem(request: ResourceMigrationRequest, current: { readonly kind: 'api' | 'identity' } | undefined): string | undefined {
  if (current?.kind === 'identity') return `"${request.name}" is an identity resource (a scope of the base schema), not an API resource`;
  if (request.kind === 'api') return current ? resourceAlreadyExists(request.name) : undefined;
  return current
    ? undefined
    : `API resource "${request.name}" does not exist: add it with npm run resource:migration -- --api ${request.name} --scope <scopes>`;
}

/** The API resource as the migration leaves it; none when it leaves it disabled. */
function resourceOutcome(request: ResourceMigrationRequest, current: ResourceView | undefined): ResourceOutcome | undefined {
  if (request.kind === 'api') return { name: request.name, scopes: request.scopes, openToSelfRegistered: request.openToSelfRegistered === true };
  if (!current || (request.changes.enabled ?? current.enabled) === false) return undefined;
  const { scopes = current.scopes, openToSelfRegistered = current.openToSelfRegistered } = request.changes;
  return { name: request.name, scopes, openToSelfRegistered };
}

/** A resource URI names one resource: the `aud` of a token addressed to it. */
function uriProblem(request: ResourceMigrationRequest, resources: readonly ResourceView[]): string | undefined {
  const uri = request.kind === 'api' ? request.uri : request.changes.uri;
  const holder = uri === undefined ? undefined : resources.find((resource) => resource.uri === uri && resource.name !== request.name);
  return holder && uri !== undefined ? uriTaken(uri, holder.name) : undefined;
}
