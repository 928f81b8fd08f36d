import { parseArgs } from 'node:util';
import { CLIENT_ID } from '../client-migration/client-migration-arguments';
import { jwksUriProblem } from '../../src/identity/trusted-issuers/jwks-uri';
import { isScopeToken } from '../../src/protocol/scope';

/** `--authorization-grant`: an issuer whose JWT authorization grants and ID-JAGs the jwt-bearer grant redeems (docs/chaining.md). */
export interface AuthorizationGrantIssuerRequest {
  readonly kind: 'authorization-grant';
  readonly issuer: string;
  readonly jwksFile?: string;
  readonly jwksUri?: string;
  readonly jwks?: { readonly keys: readonly object[] };
  readonly userClaim: string;
  readonly identityScopes: readonly string[];
  readonly maxLifetimeSeconds: number;
  readonly trustedBy: readonly string[];
  readonly description?: string;
}

/** `--authorization-grant <registered issuer>` without keys: the settings given replace its own; the `trustedBy` clients are added. */
export interface AuthorizationGrantIssuerChange {
  readonly kind: 'authorization-grant-change';
  readonly issuer: string;
  readonly userClaim?: string;
  readonly identityScopes?: readonly string[];
  readonly maxLifetimeSeconds?: number;
  readonly trustedBy: readonly string[];
}

/** `--partner`: an authorization server of another domain that token exchange issues grants for. */
export interface PartnerRequest {
  readonly kind: 'partner';
  readonly issuer: string;
  readonly resources: readonly string[];
  /** Our client_id → its client_id at the partner. */
  readonly clientIds: Readonly<Record<string, string>>;
  readonly description?: string;
}

/** `--partner <registered issuer> --change`: what is given replaces its own; clients are added, re-mapped or removed. */
export interface PartnerChange {
  readonly kind: 'partner-change';
  readonly issuer: string;
  readonly resources?: readonly string[];
  /** Our client_id → its client_id at the partner, added or replacing the one there. */
  readonly clientIds: Readonly<Record<string, string>>;
  readonly removedClients: readonly string[];
  readonly description?: string;
}

export type CrossDomainRequest = AuthorizationGrantIssuerRequest | AuthorizationGrantIssuerChange | PartnerRequest | PartnerChange;

export const CROSS_DOMAIN_USAGE = `Across trust domains (docs/chaining.md):
  tollgate issuer:migration --authorization-grant <issuer URL> (--jwks-file <file> | --jwks-uri <url>) --trusted-by <client_id>...
      [--user-claim <claim> (default sub)] [--identity-scope <scope>...] [--max-lifetime <seconds> (default 300)] [--description <text>]
  tollgate issuer:migration --authorization-grant <registered issuer URL> [--user-claim <claim>] [--identity-scope <scope>...]
      [--max-lifetime <seconds>] [--trusted-by <client_id>...]   (without keys: changes it; --trusted-by clients are added)
  tollgate issuer:migration --partner <issuer URL> --client <our client_id>=<its client_id there>... [--resource <uri>...] [--description <text>]
  tollgate issuer:migration --partner <registered issuer URL> --change [--client <our client_id>=<its client_id there>...]
      [--remove-client <our client_id>...] [--resource <uri>...] [--description <text>]   (--resource replaces the list)
Options for every form: --out-dir <directory> (default: migrations), --no-index.`;

const OPTIONS = {
  'authorization-grant': { type: 'string' },
  partner: { type: 'string' },
  'jwks-file': { type: 'string' },
  'jwks-uri': { type: 'string' },
  'user-claim': { type: 'string' },
  'identity-scope': { type: 'string', multiple: true },
  'trusted-by': { type: 'string', multiple: true },
  'max-lifetime': { type: 'string' },
  resource: { type: 'string', multiple: true },
  client: { type: 'string', multiple: true },
  'remove-client': { type: 'string', multiple: true },
  change: { type: 'boolean' },
  description: { type: 'string' },
  'out-dir': { type: 'string' },
  'no-index': { type: 'boolean' },
  offline: { type: 'boolean' },
} as const;

const ISSUER_URL = /^https?:\/\/[^\s#?]{1,490}$/;
const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

export class CrossDomainUsageError extends Error {}

/** Whether the command line is one of these two forms. */
export function isCrossDomainRequest(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--authorization-grant' || arg === '--partner' || arg.startsWith('--authorization-grant=') || arg.startsWith('--partner='));
}

/** Reads the command line; every mistake is a `CrossDomainUsageError` listing all of them. */
export function parseCrossDomainArguments(argv: readonly string[]): { request: CrossDomainRequest; outDir: string; updateIndex: boolean } {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new CrossDomainUsageError((error as Error).message);
  }
  const problems: string[] = [];
  const issuer = values['authorization-grant'] ?? values.partner ?? '';
  if ((values['authorization-grant'] === undefined) === (values.partner === undefined))
    problems.push('give exactly one of --authorization-grant and --partner');
  if (!ISSUER_URL.test(issuer)) problems.push(`the issuer "${issuer.slice(0, 200)}" must be an https URL (http only for tests), without query or fragment`);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (values.description !== undefined && (values.description.length > 200 || /[\x00-\x1f]/.test(values.description)))
    problems.push('--description must be one line of at most 200 characters');
  const clientIds = (list: readonly string[] | undefined, flag: string) => {
    for (const id of list ?? []) if (!CLIENT_ID.test(id)) problems.push(`--${flag} "${id.slice(0, 100)}" is not a client_id`);
    return [...new Set(list ?? [])];
  };
  let request: CrossDomainRequest;
  if (values['authorization-grant'] !== undefined) {
    for (const flag of ['resource', 'client', 'remove-client', 'change'] as const)
      if (values[flag] !== undefined) problems.push(`--${flag} goes only with --partner (without keys, --authorization-grant changes a registered issuer)`);
    if (values['jwks-file'] !== undefined && values['jwks-uri'] !== undefined) problems.push('give at most one of --jwks-file and --jwks-uri');
    const uriProblem = values['jwks-uri'] === undefined ? undefined : jwksUriProblem(values['jwks-uri']);
    if (uriProblem) problems.push(`--jwks-uri: ${uriProblem}`);
    const userClaim = values['user-claim'];
    if (userClaim !== undefined && !CLAIM_NAME.test(userClaim)) problems.push(`--user-claim "${userClaim.slice(0, 100)}" is not a claim name`);
    const identityScopes = values['identity-scope'] === undefined ? undefined : [...new Set(values['identity-scope'])];
    for (const scope of identityScopes ?? []) if (!isScopeToken(scope)) problems.push(`--identity-scope "${scope.slice(0, 100)}" is not a scope`);
    const maxLifetimeSeconds = values['max-lifetime'] === undefined ? undefined : Number(values['max-lifetime']);
    if (maxLifetimeSeconds !== undefined && !(Number.isInteger(maxLifetimeSeconds) && maxLifetimeSeconds >= 1 && maxLifetimeSeconds <= 86400))
      problems.push('--max-lifetime must be 1 to 86400 seconds');
    const trustedBy = clientIds(values['trusted-by'], 'trusted-by');
    if (values['jwks-file'] === undefined && values['jwks-uri'] === undefined) {
      // Without keys: a change of a registered issuer, as `--subject` without keys.
      if (values.description !== undefined) problems.push('--description of a registered issuer changes with --change <issuer> --description');
      if ([userClaim, identityScopes, maxLifetimeSeconds].every((value) => value === undefined) && trustedBy.length === 0)
        problems.push(
          'give --jwks-file or --jwks-uri to register the issuer, or at least one of --user-claim, --identity-scope, --max-lifetime and --trusted-by to change it',
        );
      request = { kind: 'authorization-grant-change', issuer, userClaim, identityScopes, maxLifetimeSeconds, trustedBy };
    } else {
      if (trustedBy.length === 0) problems.push('--trusted-by names at least one client that may present its assertions');
      request = {
        kind: 'authorization-grant',
        issuer,
        jwksFile: values['jwks-file'],
        jwksUri: values['jwks-uri'],
        userClaim: userClaim ?? 'sub',
        identityScopes: identityScopes ?? [],
        maxLifetimeSeconds: maxLifetimeSeconds ?? 300,
        trustedBy,
        description: values.description,
      };
    }
  } else {
    for (const flag of ['jwks-file', 'jwks-uri', 'user-claim', 'identity-scope', 'trusted-by', 'max-lifetime'] as const)
      if (values[flag] !== undefined) problems.push(`--${flag} goes only with --authorization-grant`);
    const resources = values.resource === undefined ? undefined : [...new Set(values.resource)];
    for (const uri of resources ?? [])
      if (!URL.canParse(uri) || uri.includes('#') || uri.length > 2048) problems.push(`--resource "${uri.slice(0, 200)}" is not an absolute URI`);
    const pairs: Record<string, string> = {};
    for (const pair of values.client ?? []) {
      const [ours, theirs, extra] = pair.split('=');
      if (extra !== undefined || !ours || !theirs || !CLIENT_ID.test(ours) || theirs.length > 500)
        problems.push(`--client "${pair.slice(0, 200)}" must be <our client_id>=<its client_id there>`);
      else pairs[ours] = theirs;
    }
    const removedClients = clientIds(values['remove-client'], 'remove-client');
    if (values.change) {
      for (const id of removedClients) if (id in pairs) problems.push(`--client and --remove-client both name ${id}`);
      if (Object.keys(pairs).length === 0 && removedClients.length === 0 && resources === undefined && values.description === undefined)
        problems.push('--change needs at least one of --client, --remove-client, --resource and --description');
      request = { kind: 'partner-change', issuer, resources, clientIds: pairs, removedClients, description: values.description };
    } else {
      if (removedClients.length > 0) problems.push('--remove-client goes only with --partner <registered issuer> --change');
      if (Object.keys(pairs).length === 0) problems.push('--client names at least one of our clients and its client_id at the partner');
      request = { kind: 'partner', issuer, resources: resources ?? [], clientIds: pairs, description: values.description };
    }
  }
  if (problems.length > 0) throw new CrossDomainUsageError(problems.join('\n'));
  return { request, outDir: values['out-dir'] ?? 'migrations', updateIndex: !values['no-index'] };
}
