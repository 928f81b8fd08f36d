import { parseArgs } from 'node:util';
import { CLIENT_ID } from '../client-migration/client-migration-arguments';
import { isScopeToken } from '../oauth/scope';

/** An API resource: the `aud` of tokens carrying any of its scopes (docs/tokens.md). */
export interface ApiResourceRequest {
  readonly kind: 'api';
  readonly name: string;
  readonly scopes: readonly string[];
  /** RFC 8707 resource URI: absolute, no fragment. */
  readonly uri?: string;
  /** The client that serves the API: tokens addressed to the resource may be delegated by it. */
  readonly servedBy?: string;
}

export interface ResourceMigrationCommand {
  readonly request: ApiResourceRequest;
  readonly outDir: string;
  readonly updateIndex: boolean;
}

export class ResourceMigrationUsageError extends Error {}

const MAX_URI_LENGTH = 512;

export const RESOURCE_USAGE = `Usage:
  npm run resource:migration -- --api <name> --scope <scope> [--scope <scope>...] [--uri <resource URI>] [--served-by <client_id>]
Options: --out-dir <directory> (default: migrations), --no-index (do not append to <out-dir>/index.ts).
Writes a timestamped TypeORM migration adding the API resource <name>: tokens with one of its scopes
carry <name> in their aud. Its down removes the resource. Clients are then allowed the scopes with
npm run client:migration. The standard identity resources (openid, profile, email, role, address,
phone) come with the base schema.
--uri: the resource's URI (RFC 8707: absolute, no fragment, at most ${MAX_URI_LENGTH} characters), unique among resources.
--served-by: the client_id of the API's own client: a token addressed to the resource (by name or URI)
is addressed to that client, which may then delegate or exchange it and introspect it.`;

const OPTIONS = {
  api: { type: 'string' },
  scope: { type: 'string', multiple: true },
  uri: { type: 'string' },
  'served-by': { type: 'string' },
  'out-dir': { type: 'string' },
  'no-index': { type: 'boolean' },
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
  const scopes = [...new Set((values.scope ?? []).flatMap((item) => item.split(' ')).filter((item) => item !== ''))];
  if (scopes.length === 0) problems.push('--scope is required (at least one scope)');
  for (const scope of scopes) if (!isScopeToken(scope)) problems.push(`--scope "${scope}" is not a valid scope token (RFC 6749 §3.3)`);
  const uri = values.uri === undefined ? undefined : checkResourceUri(values.uri, problems);
  const servedBy = values['served-by'];
  if (servedBy !== undefined && !CLIENT_ID.test(servedBy)) {
    problems.push(
      `--served-by "${servedBy.slice(0, 120)}" must be a client id: 1 to 100 characters, letters, digits and . _ ~ -, starting with a letter or digit`,
    );
  }
  if (problems.length > 0) throw new ResourceMigrationUsageError(problems.join('\n'));
  const request: ApiResourceRequest = { kind: 'api', name, scopes, ...(uri === undefined ? {} : { uri }), ...(servedBy === undefined ? {} : { servedBy }) };
  return { request, outDir: values['out-dir'] ?? defaultOutDir, updateIndex: !values['no-index'] };
}

/** RFC 8707 §2: an absolute URI without a fragment. Kept exactly as given: `aud` values are compared as exact strings. */
function checkResourceUri(uri: string, problems: string[]): string {
  const printable = [...uri].every((character) => character > ' ' && character !== '\u007f');
  if (uri.length > MAX_URI_LENGTH || !printable || uri.includes('#') || !URL.canParse(uri)) {
    problems.push(`--uri "${uri.slice(0, 100)}" must be an absolute URI without a fragment or spaces, at most ${MAX_URI_LENGTH} characters`);
  }
  return uri;
}
