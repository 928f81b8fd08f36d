import { parseArgs } from 'node:util';
import { isScopeToken } from '../../src/protocol/scope';
import { changesNothing, type ClientChanges } from './client-change';
import { deliveryUrlProblem } from '../../src/identity/signals/delivery-url';
import { grantsRefusedToPublicClients } from '../../src/grants/public-client-grants';
import { checkWorkloadIdentity, jwksUriArgumentProblem, type WorkloadIdentityArgument } from './secretless-client-arguments';

/** The grant types Tollgate serves (docs/endpoints.md#token-endpoint); any absolute URI names an extension grant (RFC 6749 §4.5). */
export const KNOWN_GRANT_TYPES = [
  'authorization_code',
  'client_credentials',
  'password',
  'refresh_token',
  'delegation',
  'urn:ietf:params:oauth:grant-type:token-exchange',
] as const;

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
      readonly delegation?: DelegationPolicy;
      /** private_key_jwt: a file holding the client's public JWK Set, read by the command. */
      readonly jwksFile?: string;
      /** The JWK Set read from `jwksFile`. */
      readonly jwks?: { readonly keys: readonly object[] };
      readonly jwksUri?: string;
      readonly workload?: WorkloadIdentityArgument;
      readonly browser: BrowserClientRegistration;
      /** Shown on the consent page (`client_name`). */
      readonly clientName?: string;
      /** RFC 9449: its token requests must carry a DPoP proof (docs/dpop.md). */
      readonly requireDpop?: boolean;
      /** Every sign-in for it must be phishing-resistant, acr phr (docs/passkeys.md#step-up). */
      readonly requirePhr?: boolean;
      /** OpenID Connect Back-Channel Logout 1.0 (docs/signals.md). */
      readonly backchannelLogout?: BackchannelLogoutRegistration;
    }
  /** Changes settings of an existing client (`--change`, or `--disable`, `--enable`, `--may-act`, `--transaction-tokens` alone). */
  | { readonly kind: 'change'; readonly clientId: string; readonly changes: ClientChanges }
  | { readonly kind: 'add-secret'; readonly clientId: string; readonly secretExpiresAt?: Date; readonly secretDescription?: string }
  /** Secrets created before `before` stop working when the migration is applied. */
  | { readonly kind: 'expire-secrets'; readonly clientId: string; readonly before: Date }
  /** `secretId` is a secret's id or a prefix of at least 8 characters of it. */
  | { readonly kind: 'remove-secret'; readonly clientId: string; readonly secretId: string };

/** docs/delegation.md, docs/transaction-tokens.md: `--may-act <client_id>`, `--transaction-tokens`. */
export interface DelegationPolicy {
  /** The only client that may act for the users of this client's tokens (RFC 8693 §4.4 `may_act`). */
  readonly mayActClientId?: string;
  /** The client may obtain transaction tokens. */
  readonly transactionTokens?: boolean;
}

/** OpenID Connect Back-Channel Logout 1.0 §2.2: where logout tokens go, and whether the client needs `sid` in them. */
export interface BackchannelLogoutRegistration {
  readonly uri: string;
  readonly sessionRequired: boolean;
}

/** How a client takes part in browser sign-in (docs/browser-sign-in.md#clients). */
export interface BrowserClientRegistration {
  /** No secret: `token_endpoint_auth_method` `none`. */
  readonly public: boolean;
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  readonly requireConsent: boolean;
  /** RFC 9126 §6: authorization requests only by `POST /connect/par`. */
  readonly requirePushedAuthorizationRequests: boolean;
}

export interface ClientMigrationCommand {
  readonly request: ClientMigrationRequest;
  /** Where the migration is written; `migrations` of the working directory by default. */
  readonly outDir: string;
  /** Append the class to `<outDir>/index.ts` (off with `--no-index`). */
  readonly updateIndex: boolean;
  /** `--offline`: do not check the service's database for the client first. */
  readonly offline: boolean;
}

export class ClientMigrationUsageError extends Error {}

export const USAGE = `Usage:
  npm run client:migration -- --client-id <id> --grant <type> [--grant <type>...] --scope "<scope> [<scope>...]" [--name <display name>]
                              [--access-token-lifetime <seconds>] [--refresh-token-lifetime <seconds>]
                              [--expires <ISO 8601 date>] [--description <text>]
                              [--may-act <client_id>] [--transaction-tokens]
                              [--public] [--redirect-uri <uri>...] [--post-logout-redirect-uri <uri>...] [--consent] [--require-par]
                              [--require-dpop] [--require-phr] [--backchannel-logout-uri <uri> [--backchannel-logout-session-required]]
  npm run client:migration -- --client-id <id> --grant <type> --scope "<scope>" (--jwks-file <file> | --jwks-uri <url> | --workload <identity> [--workload-issuer <url>])
  npm run client:migration -- --client-id <id> --change [--name <display name>] [--grant <type>...] [--scope "<scope>..."]
                              [--redirect-uri <uri>...] [--post-logout-redirect-uri <uri>...] [--consent | --no-consent]
                              [--enable | --disable] [--may-act <client_id>] [--transaction-tokens | --no-transaction-tokens]
                              [--require-dpop | --no-require-dpop] [--require-phr | --no-require-phr]
                              [--backchannel-logout-uri <uri> | --no-backchannel-logout]
                              [--backchannel-logout-session-required | --no-backchannel-logout-session-required]
                              [--access-token-lifetime <seconds>] [--refresh-token-lifetime <seconds>]
                              [--jwks-file <file> | --jwks-uri <url>] [--workload <identity> [--workload-issuer <url>]]
  npm run client:migration -- --client-id <id> --add-secret [--expires <ISO 8601 date>] [--description <text>]
  npm run client:migration -- --client-id <id> --expire-secrets-before <ISO 8601 date-time>
  npm run client:migration -- --client-id <id> --remove-secret <secret id or its first 8+ characters>
  npm run client:migration -- --client-id <id> [--may-act <client_id>] [--transaction-tokens]
  npm run client:migration -- --client-id <id> --disable
Options for every form: --out-dir <directory> (default: migrations), --no-index (do not append to <out-dir>/index.ts),
--offline (do not check the service's database first; the migration still refuses, when applied, what it cannot do).
The command first checks the database the service uses (DATABASE_URL, else the embedded one): creating a client that
exists, or changing one that does not, stops here, before any secret is printed.
--change changes an existing client: only the settings given, and a list given (--grant, --scope, --redirect-uri,
--post-logout-redirect-uri) replaces the whole list; its down puts back exactly what it replaced. --disable, --enable,
--may-act and --transaction-tokens alone are changes too. A change never adds a secret: use --add-secret.
--name: the display name users see on the consent page (client_name; the client id when there is none).
--may-act: the client's user tokens say that only <client_id> may act for the user (RFC 8693 may_act).
--transaction-tokens: the client may obtain transaction tokens (token exchange, requested_token_type txn_token).
Writes a timestamped TypeORM migration; a new secret is printed once, on stdout, and only its SHA-256 hash is stored.
--add-secret prints the new secret's id on stderr; --expire-secrets-before and --remove-secret refuse, when applied,
to leave the client without a valid secret. Rotation, step by step: docs/operations.md.
Secretless clients get no secret: --jwks-file (a public JWK Set) or --jwks-uri (https) for private_key_jwt; --workload with a
SPIFFE ID (spiffe://<trust domain>/...) or a Kubernetes service account (system:serviceaccount:<namespace>:<name>, with
--workload-issuer <the cluster's issuer>) of a trusted workload issuer (npm run issuer:migration).
--public registers a browser or native app without a secret (grants authorization_code and refresh_token only);
authorization_code needs at least one --redirect-uri; --consent makes users allow the client's scopes first;
--require-par accepts its authorization requests only pushed to /connect/par (RFC 9126).
--require-dpop: every token request of the client must carry a DPoP proof (RFC 9449; docs/dpop.md).
--require-phr: every sign-in for the client must be with a passkey, acr phr (RFC 9470; docs/passkeys.md).
--backchannel-logout-uri: where Tollgate POSTs a logout token when a session that gave the client an ID token ends
(OpenID Connect Back-Channel Logout 1.0; https, or http on a loopback host for an http issuer; docs/signals.md);
--backchannel-logout-session-required records that the client needs sid in it (Tollgate always sends sid).
Browser sign-in, step by step: docs/browser-sign-in.md.
Grant types: ${KNOWN_GRANT_TYPES.join(', ')}, or an extension grant's absolute URI.`;

const OPTIONS = {
  'client-id': { type: 'string' },
  name: { type: 'string' },
  grant: { type: 'string', multiple: true },
  scope: { type: 'string', multiple: true },
  'access-token-lifetime': { type: 'string' },
  'refresh-token-lifetime': { type: 'string' },
  expires: { type: 'string' },
  description: { type: 'string' },
  'may-act': { type: 'string' },
  'transaction-tokens': { type: 'boolean' },
  'no-transaction-tokens': { type: 'boolean' },
  'add-secret': { type: 'boolean' },
  change: { type: 'boolean' },
  disable: { type: 'boolean' },
  enable: { type: 'boolean' },
  'expire-secrets-before': { type: 'string' },
  'remove-secret': { type: 'string' },
  public: { type: 'boolean' },
  'redirect-uri': { type: 'string', multiple: true },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  consent: { type: 'boolean' },
  'no-consent': { type: 'boolean' },
  'require-par': { type: 'boolean' },
  'require-dpop': { type: 'boolean' },
  'no-require-dpop': { type: 'boolean' },
  'require-phr': { type: 'boolean' },
  'no-require-phr': { type: 'boolean' },
  'backchannel-logout-uri': { type: 'string' },
  'no-backchannel-logout': { type: 'boolean' },
  'backchannel-logout-session-required': { type: 'boolean' },
  'no-backchannel-logout-session-required': { type: 'boolean' },
  'out-dir': { type: 'string' },
  'no-index': { type: 'boolean' },
  offline: { type: 'boolean' },
  'jwks-file': { type: 'string' },
  'jwks-uri': { type: 'string' },
  workload: { type: 'string' },
  'workload-issuer': { type: 'string' },
  help: { type: 'boolean' },
} as const;

type Values = {
  [name in keyof typeof OPTIONS]?: (typeof OPTIONS)[name] extends { multiple: true }
    ? string[]
    : (typeof OPTIONS)[name] extends { type: 'boolean' }
      ? boolean
      : string;
};

// The settings of a client, given when creating or changing one.
const CREATE_OR_CHANGE = [
  'name',
  'grant',
  'scope',
  'access-token-lifetime',
  'refresh-token-lifetime',
  'jwks-file',
  'jwks-uri',
  'workload',
  'workload-issuer',
  'public',
  'redirect-uri',
  'post-logout-redirect-uri',
  'consent',
  'require-par',
  'require-dpop',
  'require-phr',
  'backchannel-logout-uri',
  'backchannel-logout-session-required',
] as const;

// Options that only a change takes; --disable, --enable, --may-act and --transaction-tokens alone make a change too.
const CHANGE_ONLY = [
  'no-consent',
  'no-transaction-tokens',
  'no-require-dpop',
  'no-require-phr',
  'no-backchannel-logout',
  'no-backchannel-logout-session-required',
  'enable',
] as const;

/** Reads the command line; every mistake is a `ClientMigrationUsageError` naming the option. `undefined` for --help. */
export function parseClientMigrationArguments(
  argv: readonly string[],
  now: Date = new Date(),
  defaultOutDir = 'migrations',
): ClientMigrationCommand | undefined {
  let values: Values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new ClientMigrationUsageError((error as Error).message);
  }
  if (values.help) return undefined;
  const problems: string[] = [];
  const clientId = checkClientId(values['client-id'], problems);
  const kind = kindOf(values, problems);
  const secret = { secretExpiresAt: checkExpiry(values.expires, now, problems), secretDescription: checkDescription(values.description, problems) };
  if (kind !== undefined && kind !== 'create' && kind !== 'add-secret') {
    for (const name of ['expires', 'description'] as const)
      if (values[name] !== undefined)
        problems.push(
          `--${name} does not apply to ${kind !== 'change' ? `--${optionOf(kind)}` : values.disable ? '--disable' : 'changing an existing client'}`,
        );
  }
  if (kind !== 'change') for (const name of CHANGE_ONLY) if (values[name] !== undefined) problems.push(`--${name} applies only when changing a client`);
  if (kind !== undefined && kind !== 'create' && kind !== 'change') {
    if (values['may-act'] !== undefined || values['transaction-tokens'] !== undefined)
      problems.push(
        '--may-act and --transaction-tokens apply when creating or changing a client, not with --add-secret, --expire-secrets-before, --remove-secret or --disable',
      );
    for (const name of CREATE_OR_CHANGE)
      if (values[name] !== undefined)
        problems.push(
          `--${name} applies only when ${name === 'public' || name === 'workload-issuer' || name === 'require-par' ? 'creating' : 'creating or changing'} a client`,
        );
  }
  let request: ClientMigrationRequest | undefined;
  if (kind === 'create') request = { kind, clientId, ...createSettings(values, problems), ...secret };
  else if (kind === 'change') request = { kind, clientId, changes: checkClientChanges(values, problems) };
  else if (kind === 'add-secret') request = { kind, clientId, ...secret };
  else if (kind === 'expire-secrets') request = { kind, clientId, before: checkCutoff(values['expire-secrets-before'] ?? '', now, problems) };
  else if (kind === 'remove-secret') request = { kind, clientId, secretId: checkSecretId(values['remove-secret'] ?? '', problems) };
  if (problems.length > 0 || !request) throw new ClientMigrationUsageError(problems.join('\n'));
  const outDir = values['out-dir'] ?? defaultOutDir;
  return { request, outDir, updateIndex: !values['no-index'], offline: values.offline === true };
}

function createSettings(values: Values, problems: string[]): Omit<Extract<ClientMigrationRequest, { kind: 'create' }>, 'kind' | 'clientId'> {
  const delegation = checkDelegationPolicy(values['may-act'], values['transaction-tokens'], problems);
  const secretless = secretlessOptions(values, problems);
  const grantTypes = checkGrantTypes(values.grant ?? [], problems);
  if (values.public === true && (secretless.jwksFile !== undefined || secretless.jwksUri !== undefined || secretless.workload !== undefined)) {
    problems.push('--public cannot be combined with --jwks-file, --jwks-uri or --workload: a public client has no credential');
  }
  const clientName = checkClientName(values.name, problems);
  return {
    grantTypes,
    scopes: checkScopes(values.scope ?? [], problems),
    accessTokenLifetimeSeconds: checkLifetime('access-token-lifetime', values['access-token-lifetime'], DEFAULT_ACCESS_TOKEN_LIFETIME, problems),
    refreshTokenLifetimeSeconds: checkLifetime('refresh-token-lifetime', values['refresh-token-lifetime'], DEFAULT_REFRESH_TOKEN_LIFETIME, problems),
    ...(delegation ? { delegation } : {}),
    ...secretless,
    browser: checkBrowserRegistration(values, grantTypes, problems),
    ...(clientName === undefined ? {} : { clientName }),
    ...(values['require-dpop'] ? { requireDpop: true } : {}),
    ...(values['require-phr'] ? { requirePhr: true } : {}),
    ...backchannelLogoutOption(values, problems),
  };
}

/** `--backchannel-logout-uri` and `--backchannel-logout-session-required`, when creating a client. */
function backchannelLogoutOption(values: Values, problems: string[]): { backchannelLogout?: BackchannelLogoutRegistration } {
  const uri = values['backchannel-logout-uri'];
  if (uri === undefined) {
    if (values['backchannel-logout-session-required']) problems.push('--backchannel-logout-session-required applies only with --backchannel-logout-uri');
    return {};
  }
  return { backchannelLogout: { uri: checkBackchannelLogoutUri(uri, problems), sessionRequired: values['backchannel-logout-session-required'] === true } };
}

/** The service delivers to loopback http only while its issuer is http, which a migration cannot know: it checks again then (docs/signals.md). */
function checkBackchannelLogoutUri(uri: string, problems: string[]): string {
  const problem = deliveryUrlProblem(uri, true);
  if (problem !== undefined) problems.push(`--backchannel-logout-uri "${uri.slice(0, 200)}" ${problem}`);
  return uri;
}

/** `--change` (or a shorthand of it): each setting given is checked as when creating; the rest stay as they are. */
function checkClientChanges(values: Values, problems: string[]): ClientChanges {
  if (values.public !== undefined) problems.push('--public applies only when creating a client: register the app again under a new client id');
  if (values['require-par'] !== undefined) problems.push('--require-par applies only when creating a client');
  for (const [yes, no] of [
    ['consent', 'no-consent'],
    ['enable', 'disable'],
    ['transaction-tokens', 'no-transaction-tokens'],
    ['require-dpop', 'no-require-dpop'],
    ['require-phr', 'no-require-phr'],
    ['backchannel-logout-uri', 'no-backchannel-logout'],
    ['backchannel-logout-session-required', 'no-backchannel-logout-session-required'],
  ] as const)
    if (values[yes] && values[no]) problems.push(`--${yes} and --${no} contradict each other`);
  const secretless = secretlessOptions(values, problems);
  const flag = (yes: boolean | undefined, no: boolean | undefined) => (yes ? true : no ? false : undefined);
  const changes: ClientChanges = {
    clientName: checkClientName(values.name, problems),
    grantTypes: values.grant === undefined ? undefined : checkGrantTypes(values.grant, problems),
    scopes: values.scope === undefined ? undefined : checkScopes(values.scope, problems),
    redirectUris: values['redirect-uri'] === undefined ? undefined : checkRedirectUris('redirect-uri', values['redirect-uri'], problems),
    postLogoutRedirectUris:
      values['post-logout-redirect-uri'] === undefined
        ? undefined
        : checkRedirectUris('post-logout-redirect-uri', values['post-logout-redirect-uri'], problems),
    requireConsent: flag(values.consent, values['no-consent']),
    enabled: flag(values.enable, values.disable),
    mayActClientId: values['may-act'] === undefined ? undefined : checkDelegationPolicy(values['may-act'], false, problems)?.mayActClientId,
    transactionTokens: flag(values['transaction-tokens'], values['no-transaction-tokens']),
    requireDpop: flag(values['require-dpop'], values['no-require-dpop']),
    requirePhr: flag(values['require-phr'], values['no-require-phr']),
    backchannelLogoutUri: values['no-backchannel-logout']
      ? null
      : values['backchannel-logout-uri'] === undefined
        ? undefined
        : checkBackchannelLogoutUri(values['backchannel-logout-uri'], problems),
    backchannelLogoutSessionRequired: values['no-backchannel-logout']
      ? false
      : flag(values['backchannel-logout-session-required'], values['no-backchannel-logout-session-required']),
    accessTokenLifetimeSeconds:
      values['access-token-lifetime'] === undefined ? undefined : checkLifetime('access-token-lifetime', values['access-token-lifetime'], 0, problems),
    refreshTokenLifetimeSeconds:
      values['refresh-token-lifetime'] === undefined ? undefined : checkLifetime('refresh-token-lifetime', values['refresh-token-lifetime'], 0, problems),
    ...secretless,
  };
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as ClientChanges;
  if (changesNothing(defined)) problems.push('--change needs at least one setting to change (see the options of --change below)');
  return defined;
}

const CHANGES = [
  ['add-secret', 'add-secret'],
  ['expire-secrets-before', 'expire-secrets'],
  ['remove-secret', 'remove-secret'],
  ['change', 'change'],
] as const;

function optionOf(kind: ClientMigrationRequest['kind']): string {
  return CHANGES.find(([, value]) => value === kind)?.[0] ?? kind;
}

/**
 * Which migration the options ask for, one per migration: a secret operation, a change of an
 * existing client, or a new client. --disable, --enable, --no-consent, --no-transaction-tokens, and
 * --may-act or --transaction-tokens without --grant and --scope, are changes without saying --change.
 */
function kindOf(values: Values, problems: string[]): ClientMigrationRequest['kind'] | undefined {
  const given = CHANGES.filter(([option]) => values[option] !== undefined);
  if (given.length > 1) {
    problems.push(`${given.map(([option]) => `--${option}`).join(' and ')} cannot be combined: write one migration for each`);
    return undefined;
  }
  const toggles = (['disable', 'enable'] as const).filter((option) => values[option] !== undefined);
  if (given.length === 1 && given[0][0] !== 'change' && toggles.length > 0) {
    problems.push(`--${given[0][0]} and ${toggles.map((option) => `--${option}`).join(' and ')} cannot be combined: write one migration for each`);
    return undefined;
  }
  if (given.length === 1) return given[0][1];
  if (values.disable || CHANGE_ONLY.some((option) => values[option] !== undefined)) return 'change';
  const delegationAlone =
    (values['may-act'] !== undefined || values['transaction-tokens'] !== undefined) && values.grant === undefined && values.scope === undefined;
  return delegationAlone ? 'change' : 'create';
}

// An instant in the past (or now): a secret created later, e.g. by --add-secret, stays valid.
function checkCutoff(raw: string, now: Date, problems: string[]): Date {
  const date = parseDate(raw);
  if (!date) problems.push(`--expire-secrets-before "${raw}" must be an ISO 8601 date or date-time, e.g. 2027-01-31T12:00:00Z`);
  else if (date.getTime() > now.getTime())
    problems.push(`--expire-secrets-before ${date.toISOString()} is in the future: it would end secrets not yet handed over`);
  return date ?? now;
}

const SECRET_ID = /^[0-9a-f]{8}[0-9a-f-]{0,28}$/;

function checkSecretId(raw: string, problems: string[]): string {
  const id = raw.toLowerCase();
  if (!SECRET_ID.test(id)) problems.push(`--remove-secret "${raw}" must be a secret id (a UUID) or its first 8 or more characters`);
  return id;
}

interface SecretlessValues {
  readonly 'jwks-file'?: string;
  readonly 'jwks-uri'?: string;
  readonly workload?: string;
  readonly 'workload-issuer'?: string;
  readonly expires?: string;
  readonly description?: string;
}

/** --jwks-file, --jwks-uri and --workload each make a client without a secret (docs/workload-identity.md). */
function secretlessOptions(values: SecretlessValues, problems: string[]): { jwksFile?: string; jwksUri?: string; workload?: WorkloadIdentityArgument } {
  const { 'jwks-file': jwksFile, 'jwks-uri': jwksUri, workload, 'workload-issuer': workloadIssuer } = values;
  const chosen = [jwksFile, jwksUri, workload].filter((value) => value !== undefined).length;
  if (chosen > 1) problems.push('--jwks-file, --jwks-uri and --workload cannot be combined: a client authenticates one way');
  if (chosen > 0 && (values.expires !== undefined || values.description !== undefined))
    problems.push('--expires and --description apply to secrets, and this client has none');
  if (workloadIssuer !== undefined && workload === undefined) problems.push('--workload-issuer applies only with --workload');
  const uriProblem = jwksUri === undefined ? undefined : jwksUriArgumentProblem(jwksUri);
  if (uriProblem) problems.push(uriProblem);
  return { jwksFile, jwksUri, workload: workload === undefined ? undefined : checkWorkloadIdentity(workload, workloadIssuer, problems) };
}

function checkBrowserRegistration(
  values: {
    public?: boolean;
    consent?: boolean;
    'require-par'?: boolean;
    'redirect-uri'?: string[];
    'post-logout-redirect-uri'?: string[];
    expires?: string;
    description?: string;
  },
  grantTypes: readonly string[],
  problems: string[],
): BrowserClientRegistration {
  const isPublic = values.public === true;
  const redirectUris = unique(values['redirect-uri'] ?? []);
  const postLogoutRedirectUris = unique(values['post-logout-redirect-uri'] ?? []);
  if (isPublic) {
    const refused = grantsRefusedToPublicClients(grantTypes);
    if (refused.length > 0) problems.push(`--public clients may not use ${refused.join(', ')}: those grants do not serve public clients`);
    for (const name of ['expires', 'description'] as const)
      if (values[name] !== undefined) problems.push(`--${name} does not apply to --public: a public client has no secret`);
  }
  const usesCode = grantTypes.includes('authorization_code');
  if (usesCode && redirectUris.length === 0) problems.push('--redirect-uri is required with the authorization_code grant (at least one)');
  if (!usesCode) {
    for (const name of ['redirect-uri', 'post-logout-redirect-uri', 'consent', 'require-par'] as const)
      if (values[name] !== undefined) problems.push(`--${name} applies only with --grant authorization_code`);
  }
  for (const uri of redirectUris) checkRedirectUri('redirect-uri', uri, problems);
  for (const uri of postLogoutRedirectUris) checkRedirectUri('post-logout-redirect-uri', uri, problems);
  return {
    public: isPublic,
    redirectUris,
    postLogoutRedirectUris,
    requireConsent: values.consent === true,
    requirePushedAuthorizationRequests: values['require-par'] === true,
  };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * RFC 9700 §4.1.1 and RFC 8252 §7: an absolute URI compared exactly, without fragment; https, http
 * only on loopback, or an app's private-use scheme (reverse domain name, e.g. com.example.app:/cb).
 */
function checkRedirectUri(option: string, uri: string, problems: string[]): void {
  let url: URL | undefined;
  try {
    url = new URL(uri);
  } catch {
    url = undefined;
  }
  const scheme = url?.protocol.slice(0, -1);
  const allowed =
    scheme === 'https' || (scheme === 'http' && LOOPBACK_HOSTS.has(url!.hostname)) || (scheme !== undefined && scheme !== 'http' && scheme.includes('.'));
  if (!url || uri.length > 2000 || uri.includes('#') || /\s/.test(uri) || !allowed) {
    problems.push(
      `--${option} "${uri}" must be an absolute https URI (http only for 127.0.0.1, [::1] or localhost, or an app's reverse-domain scheme) without fragment`,
    );
  }
}

// Printable, URL- and Basic-auth-safe (RFC 6749 §2.3.1 form-encodes it anyway), and usable in a class name.
export const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,99}$/;

function checkClientId(clientId: string | undefined, problems: string[]): string {
  if (clientId === undefined) problems.push('--client-id is required');
  else if (!CLIENT_ID.test(clientId))
    problems.push(`--client-id "${clientId}" must be 1 to 100 characters: letters, digits and . _ ~ -, starting with a letter or digit`);
  return clientId ?? '';
}

function checkDelegationPolicy(mayAct: string | undefined, transactionTokens: boolean | undefined, problems: string[]): DelegationPolicy | undefined {
  if (mayAct === undefined && !transactionTokens) return undefined;
  if (mayAct !== undefined && !CLIENT_ID.test(mayAct))
    problems.push(`--may-act "${mayAct}" must be a client id: 1 to 100 characters, letters, digits and . _ ~ -`);
  return { ...(mayAct === undefined ? {} : { mayActClientId: mayAct }), ...(transactionTokens ? { transactionTokens: true } : {}) };
}

function checkRedirectUris(option: string, raw: readonly string[], problems: string[]): string[] {
  const uris = unique(raw);
  for (const uri of uris) checkRedirectUri(option, uri, problems);
  return uris;
}

const MAX_CLIENT_NAME = 200;

/** OpenID Connect Dynamic Client Registration §2 `client_name`: one line, shown to users (escaped). */
function checkClientName(raw: string | undefined, problems: string[]): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (raw !== undefined && (raw.trim() === '' || raw.length > MAX_CLIENT_NAME || /[\x00-\x1f\x7f]/.test(raw)))
    problems.push(`--name must be one line of 1 to ${MAX_CLIENT_NAME} characters`);
  return raw;
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
  const date = parseDate(raw);
  if (!date) problems.push(`--expires "${raw}" must be an ISO 8601 date or date-time, e.g. 2027-01-31 or 2027-01-31T12:00:00Z`);
  else if (date.getTime() <= now.getTime()) problems.push(`--expires ${date.toISOString()} is not in the future`);
  else return date;
  return undefined;
}

function parseDate(raw: string): Date | undefined {
  const date = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw) ? new Date(raw) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

function checkDescription(raw: string | undefined, problems: string[]): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (raw !== undefined && (raw.length > 200 || /[\x00-\x1f]/.test(raw))) problems.push('--description must be one line of at most 200 characters');
  return raw;
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
