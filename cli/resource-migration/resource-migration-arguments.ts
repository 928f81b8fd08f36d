import { parseArgs } from 'node:util';
import { CLIENT_ID } from '../client-migration/client-migration-arguments';
import { isScopeToken } from '../../src/protocol/scope';
import { changedResourceSettings, type ApiResourceChanges } from './resource-change';

/** An API resource: the `aud` of tokens carrying any of its scopes (docs/tokens.md). */
export interface ApiResourceRequest {
  readonly kind: 'api';
  readonly name: string;
  readonly scopes: readonly string[];
  /** RFC 8707 resource URI: absolute, no fragment. */
  readonly uri?: string;
  /** The client that serves the API: tokens addressed to the resource may be delegated by it. */
  readonly servedBy?: string;
  /** Clients that registered themselves may request its scopes (docs/agents.md). */
  readonly openToSelfRegistered?: boolean;
}

/** `--api <name> --change`: settings of an existing API resource (docs/operations.md#changing-what-exists). */
export interface ApiResourceChangeRequest {
  readonly kind: 'change-api';
  readonly name: string;
  readonly changes: ApiResourceChanges;
}

export type ResourceMigrationRequest = ApiResourceRequest | ApiResourceChangeRequest;

export interface ResourceMigrationCommand {
  readonly request: ResourceMigrationRequest;
  readonly outDir: string;
  readonly updateIndex: boolean;
  /** `--offline`: do not check the service's database for the resource first. */
  readonly offline: boolean;
}

export class ResourceMigrationUsageError extends Error {}

const MAX_URI_LENGTH = 512;

export const RESOURCE_USAGE = `Usage:
  npm run resource:migration -- --api <name> --scope <scope> [--scope <scope>...] [--uri <resource URI>] [--served-by <client_id>] [--open-to-self-registered]
  npm run resource:migration -- --api <name> --change [--scope <scope>...] [--uri <resource URI>] [--served-by <client_id>] [--enable | --disable]
      [--open-to-self-registered | --close-to-self-registered]
Options: --out-dir <directory> (default: migrations), --no-index (do not append to <out-dir>/index.ts),
--offline (do not check the service's database first).
Writes a timestamped TypeORM migration adding the API resource <name>: tokens with one of its scopes
carry <name> in their aud. Its down removes the resource. Clients are then allowed the scopes with
npm run client:migration. The standard identity resources (openid, profile, email, role, address,
phone) come with the base schema.
--uri: the resource's URI (RFC 8707: absolute, no fragment, at most ${MAX_URI_LENGTH} characters), unique among resources.
--served-by: the client_id of the API's own client: a token addressed to the resource (by name or URI)
is addressed to that client, which may then delegate or exchange it and introspect it.
--open-to-self-registered: clients that registered themselves (client ID metadata documents, dynamic
registration; docs/agents.md) may request its scopes; --close-to-self-registered takes that back.
--change changes an existing API resource: --scope given replaces its scopes, --uri and --served-by
replace its URI and serving client; --disable takes it out of tokens and requests, --enable puts it
back. Its down puts back exactly what it replaced.
The command first checks the database the service uses: adding a resource that exists, or changing one
that does not, or giving a URI another resource has, stops here.`;

const OPTIONS = {
  api: { type: 'string' },
  scope: { type: 'string', multiple: true },
  uri: { type: 'string' },
  'served-by': { type: 'string' },
  change: { type: 'boolean' },
  enable: { type: 'boolean' },
  disable: { type: 'boolean' },
  'open-to-self-registered': { type: 'boolean' },
  'close-to-self-registered': { type: 'boolean' },
  'out-dir': { type: 'string' },
  'no-index': { type: 'boolean' },
  offline: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._~:/-]{0,199}$/;

/** Reads the command line; every mistake is a `ResourceMigrationUsageError`. `undefined` for --help. */
export function parseResourceMigrationArguments(argv: readonly string[], defaultOutDir = 'migrations'): ResourceMigrationCommand | undefined {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new ResourceMigrationUsageError((error as Error).message);
  }
  if (values.help) return undefined;
  const problems: string[] = [];
  const name = values.api ?? '';
  if (values.api === undefined) problems.push('--api is required');
  else if (!NAME.test(name)) problems.push(`--api "${name}" must be 1 to 200 characters: letters, digits and . _ ~ : / -, starting with a letter or digit`);
  const open = values['open-to-self-registered'];
  const close = values['close-to-self-registered'];
  const changing = values.change === true || values.enable !== undefined || values.disable !== undefined || close !== undefined;
  const scopes = values.scope === undefined && changing ? undefined : checkScopes(values.scope ?? [], problems);
  const uri = values.uri === undefined ? undefined : checkResourceUri(values.uri, problems);
  const servedBy = values['served-by'] === undefined ? undefined : checkServingClient(values['served-by'], problems);
  const served = { ...(uri === undefined ? {} : { uri }), ...(servedBy === undefined ? {} : { servedBy }) };
  let request: ResourceMigrationRequest;
  if (changing) {
    if (values.enable && values.disable) problems.push('--enable and --disable contradict each other');
    if (open && close) problems.push('--open-to-self-registered and --close-to-self-registered contradict each other');
    const changes: ApiResourceChanges = {
      ...(scopes ? { scopes } : {}),
      ...served,
      ...(values.enable || values.disable ? { enabled: values.enable === true } : {}),
      ...(open || close ? { openToSelfRegistered: open === true } : {}),
    };
    if (changedResourceSettings(changes).length === 0)
      problems.push(
        '--change needs at least one setting to change: --scope, --uri, --served-by, --enable, --disable, --open-to-self-registered or --close-to-self-registered',
      );
    request = { kind: 'change-api', name, changes };
  } else {
    request = { kind: 'api', name, scopes: scopes ?? [], ...served, ...(open ? { openToSelfRegistered: true } : {}) };
  }
  if (problems.length > 0) throw new ResourceMigrationUsageError(problems.join('\n'));
  return { request, outDir: values['out-dir'] ?? defaultOutDir, updateIndex: !values['no-index'], offline: values.offline === true };
}

function checkScopes(raw: readonly string[], problems: string[]): string[] {
  const scopes = [...new Set(raw.flatMap((item) => item.split(' ')).filter((item) => item !== ''))];
  if (scopes.length === 0) problems.push('--scope is required (at least one scope)');
  for (const scope of scopes) if (!isScopeToken(scope)) problems.push(`--scope "${scope}" is not a valid scope token (RFC 6749 §3.3)`);
  return scopes;
}

/** RFC 8707 §2: an absolute URI without a fragment. Kept exactly as given: `aud` values are compared as exact strings. */
function checkResourceUri(uri: string, problems: string[]): string {
  const printable = [...uri].every((character) => character > ' ' && character !== '\u007f');
  if (uri.length > MAX_URI_LENGTH || !printable || uri.includes('#') || !URL.canParse(uri)) {
    problems.push(`--uri "${uri.slice(0, 100)}" must be an absolute URI without a fragment or spaces, at most ${MAX_URI_LENGTH} characters`);
  }
  return uri;
}

function checkServingClient(clientId: string, problems: string[]): string {
  if (!CLIENT_ID.test(clientId)) {
    problems.push(
      `--served-by "${clientId.slice(0, 120)}" must be a client id: 1 to 100 characters, letters, digits and . _ ~ -, starting with a letter or digit`,
    );
  }
  return clientId;
}
