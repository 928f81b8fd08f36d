import { parseArgs } from 'node:util';
import { isScopeToken } from '../oauth/scope';

/** An API resource: the `aud` of tokens carrying any of its scopes (docs/tokens.md). */
export interface ApiResourceRequest {
  readonly kind: 'api';
  readonly name: string;
  readonly scopes: readonly string[];
}

export interface ResourceMigrationCommand {
  readonly request: ApiResourceRequest;
  readonly outDir: string;
  readonly updateIndex: boolean;
}

export class ResourceMigrationUsageError extends Error {}

export const RESOURCE_USAGE = `Usage:
  npm run resource:migration -- --api <name> --scope <scope> [--scope <scope>...]
Options: --out-dir <directory> (default: migrations), --no-index (do not append to <out-dir>/index.ts).
Writes a timestamped TypeORM migration adding the API resource <name>: tokens with one of its scopes
carry <name> in their aud. Its down removes the resource. Clients are then allowed the scopes with
npm run client:migration. The standard identity resources (openid, profile, email, role, address,
phone) come with the base schema.`;

const OPTIONS = {
  api: { type: 'string' },
  scope: { type: 'string', multiple: true },
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
  if (problems.length > 0) throw new ResourceMigrationUsageError(problems.join('\n'));
  return { request: { kind: 'api', name, scopes }, outDir: values['out-dir'] ?? defaultOutDir, updateIndex: !values['no-index'] };
}
