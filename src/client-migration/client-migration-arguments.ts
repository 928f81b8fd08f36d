import { parseArgs } from 'node:util';
import { isScopeToken } from '../oauth/scope';

/** The grant types Tollgate serves (docs/endpoints.md#token-endpoint); any absolute URI names an extension grant (RFC 6749 §4.5). */
export const KNOWN_GRANT_TYPES = ['client_credentials', 'password', 'refresh_token', 'delegation', 'urn:ietf:params:oauth:grant-type:token-exchange'] as const;

const DEFAULT_ACCESS_TOKEN_LIFETIME = 3600;
const DEFAULT_REFRESH_TOKEN_LIFETIME = 2_592_000;
const MAX_LIFETIME = 31_536_000;

export type ClientMigrationRequest =
  | {
      readonly kind: 'create';
      readonly clientId: string;
      readonly grantTypes: readonly string[];
      readonly scopes: readonly string[];
      readonly accessTokenLifetimeSeconds: number;
      readonly refreshTokenLifetimeSeconds: number;
      readonly secretExpiresAt?: Date;
      readonly secretDescription?: string;
    }
  | { readonly kind: 'add-secret'; readonly clientId: string; readonly secretExpiresAt?: Date; readonly secretDescription?: string }
  | { readonly kind: 'disable'; readonly clientId: string };

export interface ClientMigrationCommand {
  readonly request: ClientMigrationRequest;
  /** Where the migration is written; `migrations` of the working directory by default. */
  readonly outDir: string;
  /** Append the class to `<outDir>/index.ts` (off with `--no-index`). */
  readonly updateIndex: boolean;
}

export class ClientMigrationUsageError extends Error {}

export const USAGE = `Usage:
  npm run client:migration -- --client-id <id> --grant <type> [--grant <type>...] --scope "<scope> [<scope>...]"
                              [--access-token-lifetime <seconds>] [--refresh-token-lifetime <seconds>]
                              [--expires <ISO 8601 date>] [--description <text>]
  npm run client:migration -- --client-id <id> --add-secret [--expires <ISO 8601 date>] [--description <text>]
  npm run client:migration -- --client-id <id> --disable
Options for every form: --out-dir <directory> (default: migrations), --no-index (do not append to <out-dir>/index.ts).
Writes a timestamped TypeORM migration; a new secret is printed once, on stdout, and only its SHA-256 hash is stored.
Grant types: ${KNOWN_GRANT_TYPES.join(', ')}, or an extension grant's absolute URI.`;

const OPTIONS = {
  'client-id': { type: 'string' },
  grant: { type: 'string', multiple: true },
  scope: { type: 'string', multiple: true },
  'access-token-lifetime': { type: 'string' },
  'refresh-token-lifetime': { type: 'string' },
  expires: { type: 'string' },
  description: { type: 'string' },
  'add-secret': { type: 'boolean' },
  disable: { type: 'boolean' },
  'out-dir': { type: 'string' },
  'no-index': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

/** Reads the command line; every mistake is a `ClientMigrationUsageError` naming the option. `undefined` for --help. */
export function parseClientMigrationArguments(argv: readonly string[], now: Date = new Date()): ClientMigrationCommand | undefined {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new ClientMigrationUsageError((error as Error).message);
  }
  if (values.help) return undefined;
  const problems: string[] = [];
  const clientId = checkClientId(values['client-id'], problems);
  const kind = values['add-secret'] && values.disable ? conflict(problems) : values['add-secret'] ? 'add-secret' : values.disable ? 'disable' : 'create';
  const creating = ['grant', 'scope', 'access-token-lifetime', 'refresh-token-lifetime'] as const;
  if (kind !== 'create') for (const name of creating) if (values[name] !== undefined) problems.push(`--${name} applies only when creating a client`);
  if (kind === 'disable') for (const name of ['expires', 'description'] as const) if (values[name] !== undefined) problems.push(`--${name} does not apply to --disable`);

  const secret = { secretExpiresAt: checkExpiry(values.expires, now, problems), secretDescription: checkDescription(values.description, problems) };
  let request: ClientMigrationRequest | undefined;
  if (kind === 'create') {
    request = {
      kind,
      clientId,
      grantTypes: checkGrantTypes(values.grant ?? [], problems),
      scopes: checkScopes(values.scope ?? [], problems),
      accessTokenLifetimeSeconds: checkLifetime('access-token-lifetime', values['access-token-lifetime'], DEFAULT_ACCESS_TOKEN_LIFETIME, problems),
      refreshTokenLifetimeSeconds: checkLifetime('refresh-token-lifetime', values['refresh-token-lifetime'], DEFAULT_REFRESH_TOKEN_LIFETIME, problems),
      ...secret,
    };
  } else if (kind === 'add-secret') {
    request = { kind, clientId, ...secret };
  } else if (kind === 'disable') {
    request = { kind, clientId };
  }
  if (problems.length > 0 || !request) throw new ClientMigrationUsageError(problems.join('\n'));
  const outDir = values['out-dir'] ?? 'migrations';
  return { request, outDir, updateIndex: !values['no-index'] };
}

function conflict(problems: string[]): undefined {
  problems.push('--add-secret and --disable cannot be combined: write one migration for each');
  return undefined;
}

// Printable, URL- and Basic-auth-safe (RFC 6749 §2.3.1 form-encodes it anyway), and usable in a class name.
const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,99}$/;

function checkClientId(clientId: string | undefined, problems: string[]): string {
  if (clientId === undefined) problems.push('--client-id is required');
  else if (!CLIENT_ID.test(clientId)) problems.push(`--client-id "${clientId}" must be 1 to 100 characters: letters, digits and . _ ~ -, starting with a letter or digit`);
  return clientId ?? '';
}

function checkGrantTypes(raw: readonly string[], problems: string[]): string[] {
  const grantTypes = unique(raw.flatMap((item) => item.split(/[\s,]+/)).filter((item) => item !== ''));
  if (grantTypes.length === 0) problems.push('--grant is required when creating a client (at least one grant type)');
  for (const grantType of grantTypes) {
    const known = (KNOWN_GRANT_TYPES as readonly string[]).includes(grantType);
    // RFC 6749 §4.5: an extension grant type is an absolute URI.
    if (!known && !/^[a-z][a-z0-9+.-]*:[^\s]+$/i.test(grantType)) {
      problems.push(`--grant "${grantType}" is not a grant type Tollgate serves (${KNOWN_GRANT_TYPES.join(', ')}) nor an extension grant's absolute URI`);
    }
  }
  return grantTypes;
}

function checkScopes(raw: readonly string[], problems: string[]): string[] {
  const scopes = unique(raw.flatMap((item) => item.split(' ')).filter((item) => item !== ''));
  if (scopes.length === 0) problems.push('--scope is required when creating a client (at least one scope)');
  for (const scope of scopes) if (!isScopeToken(scope)) problems.push(`--scope "${scope}" is not a valid scope token (RFC 6749 §3.3)`);
  return scopes;
}

function checkLifetime(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined) return fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= MAX_LIFETIME)) {
    problems.push(`--${name} must be a number of seconds from 1 to ${MAX_LIFETIME}`);
    return fallback;
  }
  return value;
}

function checkExpiry(raw: string | undefined, now: Date, problems: string[]): Date | undefined {
  if (raw === undefined) return undefined;
  const date = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw) ? new Date(raw) : undefined;
  if (!date || Number.isNaN(date.getTime())) problems.push(`--expires "${raw}" must be an ISO 8601 date or date-time, e.g. 2027-01-31 or 2027-01-31T12:00:00Z`);
  else if (date.getTime() <= now.getTime()) problems.push(`--expires ${date.toISOString()} is not in the future`);
  else return date;
  return undefined;
}

function checkDescription(raw: string | undefined, problems: string[]): string | undefined {
  if (raw !== undefined && (raw.length > 200 || /[\x00-\x1f]/.test(raw))) problems.push('--description must be one line of at most 200 characters');
  return raw;
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
