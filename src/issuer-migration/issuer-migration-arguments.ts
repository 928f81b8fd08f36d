import { parseArgs } from 'node:util';
import { jwksUriProblem } from '../trusted-issuers/jwks-uri';
import { SPIFFE_TRUST_DOMAIN } from '../trusted-issuers/trusted-issuer';
import {
  checkSubjectIssuerChanges,
  checkSubjectIssuerSettings,
  SUBJECT_FLAGS,
  type SubjectIssuerChanges,
  type SubjectIssuerSettings,
} from './subject-issuer-arguments';

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
  | { readonly kind: 'change-subject'; readonly issuer: string; readonly changes: SubjectIssuerChanges }
  | { readonly kind: 'disable'; readonly issuer: string };

export interface IssuerMigrationCommand {
  readonly request: IssuerMigrationRequest;
  readonly outDir: string;
  readonly updateIndex: boolean;
}

export class IssuerMigrationUsageError extends Error {}

export const ISSUER_USAGE = `Usage:
  npm run issuer:migration -- --kubernetes <issuer URL> (--jwks-file <file> | --jwks-uri <url>) [--description <text>]
  npm run issuer:migration -- --spiffe <spiffe://trust domain> (--jwks-file <file> | --jwks-uri <bundle endpoint URL>) [--description <text>]
  npm run issuer:migration -- --subject <issuer URL> (--jwks-file <file> | --jwks-uri <url>) --audience <aud> --user-claim <claim>
      [--identity-scope <scope>...] [--trusted-by <client_id>...] [--description <text>]
  npm run issuer:migration -- --subject <registered issuer URL> [--audience <aud>] [--user-claim <claim>] [--identity-scope <scope>...] [--trusted-by <client_id>...]
  npm run issuer:migration -- --disable <issuer or spiffe://trust domain>
Options for every form: --out-dir <directory> (default: migrations), --no-index (do not append to <out-dir>/index.ts).
Writes a timestamped TypeORM migration that registers a trusted workload issuer (docs/trusted-issuers.md):
a Kubernetes cluster (its service-account token issuer, e.g. \`kubectl get --raw /.well-known/openid-configuration\`)
or a SPIFFE trust domain. Keys are stored inline (--jwks-file, public keys only) or fetched from --jwks-uri (https).
Bind clients to its identities with npm run client:migration -- --workload.
--subject registers your identity provider as a subject issuer for token exchange (docs/delegation.md):
its tokens' aud must contain --audience, --user-claim names the claim that matches a local user's claim
of the same name, --identity-scope (repeatable) lists the identity scopes an exchanged token may carry
(none when not given), and --trusted-by (repeatable) names the clients that accept its tokens.
Without --jwks-file and --jwks-uri, --subject changes a registered subject issuer: the settings given
replace its own, the --trusted-by clients are added, and down puts back exactly what was there.`;

const OPTIONS = {
  kubernetes: { type: 'string' },
  subject: { type: 'string' },
  audience: { type: 'string' },
  'user-claim': { type: 'string' },
  'identity-scope': { type: 'string', multiple: true },
  'trusted-by': { type: 'string', multiple: true },
  spiffe: { type: 'string' },
  disable: { type: 'string' },
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
  const forms = [values.kubernetes, values.spiffe, values.subject, values.disable].filter((value) => value !== undefined).length;
  if (forms !== 1) problems.push('give exactly one of --kubernetes, --spiffe, --subject and --disable');
  if (values.subject === undefined) for (const name of SUBJECT_FLAGS) if (values[name] !== undefined) problems.push(`--${name} goes only with --subject`);
  let request: IssuerMigrationRequest | undefined;
  if (values.disable !== undefined) {
    for (const name of ['jwks-file', 'jwks-uri', 'description'] as const)
      if (values[name] !== undefined) problems.push(`--${name} does not apply to --disable`);
    request = { kind: 'disable', issuer: values.disable };
  } else if (values.subject !== undefined && values['jwks-file'] === undefined && values['jwks-uri'] === undefined) {
    if (values.description !== undefined) problems.push('--description goes only with a new issuer (with --jwks-file or --jwks-uri)');
    if (SUBJECT_FLAGS.every((name) => values[name] === undefined))
      problems.push(
        'give --jwks-file or --jwks-uri to register the issuer, or at least one of --audience, --user-claim, --identity-scope and --trusted-by to change it',
      );
    if (!HTTPS_ISSUER.test(values.subject))
      problems.push(`--subject "${values.subject.slice(0, 500)}" must be the https issuer URL of your identity provider (its tokens' iss)`);
    request = { kind: 'change-subject', issuer: values.subject, changes: checkSubjectIssuerChanges(values, problems) };
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
    const description = values.description;
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (description !== undefined && (description.length > 200 || /[\x00-\x1f]/.test(description)))
      problems.push('--description must be one line of at most 200 characters');
    request = { kind: 'create', issuer, issuerKind, jwksFile: values['jwks-file'], jwksUri: values['jwks-uri'], description, ...(subject ? { subject } : {}) };
  }
  if (request.issuer.length === 0 || request.issuer.length > 500) problems.push('the issuer must be 1 to 500 characters');
  if (problems.length > 0) throw new IssuerMigrationUsageError(problems.join('\n'));
  return { request, outDir: values['out-dir'] ?? 'migrations', updateIndex: !values['no-index'] };
}
