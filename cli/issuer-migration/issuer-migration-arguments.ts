import { parseArgs } from 'node:util';
import { CROSS_DOMAIN_USAGE } from './cross-domain-arguments';
import { jwksUriProblem } from '../../src/identity/trusted-issuers/jwks-uri';
import { SPIFFE_TRUST_DOMAIN } from '../../src/identity/trusted-issuers/trusted-issuer';
import { checkSubjectIssuerChanges, checkSubjectIssuerSettings, SUBJECT_FLAGS, type SubjectIssuerSettings } from './subject-issuer-arguments';
import type { IssuerChanges } from './issuer-change';

export type IssuerMigrationRequest =
  | {
      readonly kind: 'create';
      readonly issuer: string;
      readonly issuerKind: 'kubernetes' | 'spiffe' | 'jwt';
      /** A file holding the issuer's public JWK Set (or SPIFFE bundle), read by the command. */
      readonly jwksFile?: string;
      readonly jwks?: { readonly keys: readonly object[] };
      readonly jwksUri?: string;
      readonly description?: string;
      /** Present for a subject issuer (`--subject`), absent for a workload issuer. */
      readonly subject?: SubjectIssuerSettings;
    }
  /** `--change`, or `--subject` without keys, `--disable` and `--enable`: settings of a registered issuer. */
  | { readonly kind: 'change'; readonly issuer: string; readonly changes: IssuerChanges };

export interface IssuerMigrationCommand {
  readonly request: IssuerMigrationRequest;
  readonly outDir: string;
  readonly updateIndex: boolean;
  /** `--offline`: do not check the service's database for the issuer first. */
  readonly offline: boolean;
}

export class IssuerMigrationUsageError extends Error {}

export const ISSUER_USAGE = `Usage:
  npm run issuer:migration -- --kubernetes <issuer URL> (--jwks-file <file> | --jwks-uri <url>) [--description <text>]
  npm run issuer:migration -- --spiffe <spiffe://trust domain> (--jwks-file <file> | --jwks-uri <bundle endpoint URL>) [--description <text>]
  npm run issuer:migration -- --subject <issuer URL> (--jwks-file <file> | --jwks-uri <url>) --audience <aud> --user-claim <claim>
      [--identity-scope <scope>...] [--trusted-by <client_id>...] [--description <text>]
  npm run issuer:migration -- --subject <registered issuer URL> [--audience <aud>] [--user-claim <claim>] [--identity-scope <scope>...] [--trusted-by <client_id>...]
  npm run issuer:migration -- --change <registered issuer> [--jwks-file <file> | --jwks-uri <url>] [--description <text>]
      [--audience <aud>] [--user-claim <claim>] [--identity-scope <scope>...] [--trusted-by <client_id>...]   (the last four: subject issuers)
  npm run issuer:migration -- --disable <issuer or spiffe://trust domain>
  npm run issuer:migration -- --enable <issuer or spiffe://trust domain>
Options for every form: --out-dir <directory> (default: migrations), --no-index (do not append to <out-dir>/index.ts),
--offline (do not check the service's database first).
The command first checks the database the service uses: registering an issuer that exists, or changing
one that does not, stops here. Every change (--change, --disable, --enable, --subject without keys)
records what it replaces, and its down puts back exactly that.
Writes a timestamped TypeORM migration that registers a trusted workload issuer (docs/trusted-issuers.md):
a Kubernetes cluster (its service-account token issuer, e.g. \`kubectl get --raw /.well-known/openid-configuration\`)
or a SPIFFE trust domain. Keys are stored inline (--jwks-file, public keys only) or fetched from --jwks-uri (https).
Bind clients to its identities with npm run client:migration -- --workload.
--subject registers your identity provider as a subject issuer for token exchange (docs/delegation.md):
its tokens' aud must contain --audience, --user-claim names the claim that matches a local user's claim
of the same name, --identity-scope (repeatable) lists the identity scopes an exchanged token may carry
(none when not given), and --trusted-by (repeatable) names the clients that accept its tokens.
Without --jwks-file and --jwks-uri, --subject changes a registered subject issuer: the settings given
replace its own, the --trusted-by clients are added, and down puts back exactly what was there.
${CROSS_DOMAIN_USAGE}`;

const OPTIONS = {
  kubernetes: { type: 'string' },
  subject: { type: 'string' },
  audience: { type: 'string' },
  'user-claim': { type: 'string' },
  'identity-scope': { type: 'string', multiple: true },
  'trusted-by': { type: 'string', multiple: true },
  spiffe: { type: 'string' },
  disable: { type: 'string' },
  enable: { type: 'string' },
  change: { type: 'string' },
  offline: { type: 'boolean' },
  'jwks-file': { type: 'string' },
  'jwks-uri': { type: 'string' },
  description: { type: 'string' },
  'out-dir': { type: 'string' },
  'no-index': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

// OpenID Connect Discovery §3: an https URL without query or fragment.
const HTTPS_ISSUER = /^https:\/\/[^\s#?]+$/;

/** Reads the command line; every mistake is an `IssuerMigrationUsageError`. `undefined` for --help. */
export function parseIssuerMigrationArguments(argv: readonly string[]): IssuerMigrationCommand | undefined {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new IssuerMigrationUsageError((error as Error).message);
  }
  if (values.help) return undefined;
  const problems: string[] = [];
  const forms = [values.kubernetes, values.spiffe, values.subject, values.disable, values.enable, values.change].filter((value) => value !== undefined).length;
  if (forms !== 1) problems.push('give exactly one of --kubernetes, --spiffe, --subject, --change, --disable and --enable');
  if (values.subject === undefined && values.change === undefined)
    for (const name of SUBJECT_FLAGS) if (values[name] !== undefined) problems.push(`--${name} goes only with --subject`);
  let request: IssuerMigrationRequest | undefined;
  const toggled = values.disable ?? values.enable;
  if (toggled !== undefined) {
    const option = values.disable !== undefined ? 'disable' : 'enable';
    for (const name of ['jwks-file', 'jwks-uri', 'description'] as const)
      if (values[name] !== undefined) problems.push(`--${name} does not apply to --${option}`);
    request = { kind: 'change', issuer: toggled, changes: { enabled: option === 'enable' } };
  } else if (values.change !== undefined) {
    if (values['jwks-file'] !== undefined && values['jwks-uri'] !== undefined) problems.push('give at most one of --jwks-file and --jwks-uri');
    const uriProblem = values['jwks-uri'] === undefined ? undefined : jwksUriProblem(values['jwks-uri']);
    if (uriProblem) problems.push(`--jwks-uri: ${uriProblem}`);
    checkDescription(values.description, problems);
    const subjectGiven = SUBJECT_FLAGS.some((name) => values[name] !== undefined);
    const changes: IssuerChanges = {
      ...(values.description !== undefined ? { description: values.description } : {}),
      ...(values['jwks-file'] !== undefined ? { jwksFile: values['jwks-file'] } : {}),
      ...(values['jwks-uri'] !== undefined ? { jwksUri: values['jwks-uri'] } : {}),
      ...(subjectGiven ? { subject: checkSubjectIssuerChanges(values, problems) } : {}),
    };
    if (Object.keys(changes).length === 0)
      problems.push('--change needs at least one setting to change: --jwks-file, --jwks-uri, --description, or a subject issuer setting');
    request = { kind: 'change', issuer: values.change, changes };
  } else if (values.subject !== undefined && values['jwks-file'] === undefined && values['jwks-uri'] === undefined) {
    if (values.description !== undefined) problems.push('--description goes only with a new issuer (with --jwks-file or --jwks-uri)');
    if (SUBJECT_FLAGS.every((name) => values[name] === undefined))
      problems.push(
        'give --jwks-file or --jwks-uri to register the issuer, or at least one of --audience, --user-claim, --identity-scope and --trusted-by to change it',
      );
    if (!HTTPS_ISSUER.test(values.subject))
      problems.push(`--subject "${values.subject.slice(0, 500)}" must be the https issuer URL of your identity provider (its tokens' iss)`);
    request = { kind: 'change', issuer: values.subject, changes: { subject: checkSubjectIssuerChanges(values, problems) } };
  } else {
    const issuerKind = values.spiffe !== undefined ? 'spiffe' : values.subject !== undefined ? 'jwt' : 'kubernetes';
    const issuer = values.spiffe ?? values.subject ?? values.kubernetes ?? '';
    if (issuerKind === 'spiffe' && !SPIFFE_TRUST_DOMAIN.test(issuer))
      problems.push(`--spiffe "${issuer}" must be a trust domain ID: spiffe://<lowercase name>, no path`);
    if (issuerKind === 'kubernetes' && !HTTPS_ISSUER.test(issuer))
      problems.push(`--kubernetes "${issuer}" must be the https issuer URL of the cluster's service-account tokens`);
    if (issuerKind === 'jwt' && !HTTPS_ISSUER.test(issuer))
      problems.push(`--subject "${issuer.slice(0, 500)}" must be the https issuer URL of your identity provider (its tokens' iss)`);
    const subject = issuerKind === 'jwt' ? checkSubjectIssuerSettings(values, problems) : undefined;
    if ((values['jwks-file'] === undefined) === (values['jwks-uri'] === undefined)) problems.push('give exactly one of --jwks-file and --jwks-uri');
    const uriProblem = values['jwks-uri'] === undefined ? undefined : jwksUriProblem(values['jwks-uri']);
    if (uriProblem) problems.push(`--jwks-uri: ${uriProblem}`);
    const description = checkDescription(values.description, problems);
    request = { kind: 'create', issuer, issuerKind, jwksFile: values['jwks-file'], jwksUri: values['jwks-uri'], description, ...(subject ? { subject } : {}) };
  }
  if (request.issuer.length === 0 || request.issuer.length > 500) problems.push('the issuer must be 1 to 500 characters');
  if (problems.length > 0) throw new IssuerMigrationUsageError(problems.join('\n'));
  return { request, outDir: values['out-dir'] ?? 'migrations', updateIndex: !values['no-index'], offline: values.offline === true };
}

function checkDescription(description: string | undefined, problems: string[]): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (description !== undefined && (description.length > 200 || /[\x00-\x1f]/.test(description)))
    problems.push('--description must be one line of at most 200 characters');
  return description;
}
