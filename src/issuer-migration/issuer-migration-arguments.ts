import { parseArgs } from 'node:util';
import { jwksUriProblem } from '../trusted-issuers/jwks-uri';
import { SPIFFE_TRUST_DOMAIN } from '../trusted-issuers/trusted-issuer';

export type IssuerMigrationRequest =
  | {
      readonly kind: 'create';
      readonly issuer: string;
      readonly issuerKind: 'kubernetes' | 'spiffe';
      /** A file holding the issuer's public JWK Set (or SPIFFE bundle), read by the command. */
      readonly jwksFile?: string;
      readonly jwks?: { readonly keys: readonly object[] };
      readonly jwksUri?: string;
      readonly description?: string;
    }
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
  npm run issuer:migration -- --disable <issuer or spiffe://trust domain>
Options for every form: --out-dir <directory> (default: migrations), --no-index (do not append to <out-dir>/index.ts).
Writes a timestamped TypeORM migration that registers a trusted workload issuer (docs/trusted-issuers.md):
a Kubernetes cluster (its service-account token issuer, e.g. \`kubectl get --raw /.well-known/openid-configuration\`)
or a SPIFFE trust domain. Keys are stored inline (--jwks-file, public keys only) or fetched from --jwks-uri (https).
Bind clients to its identities with npm run client:migration -- --workload.`;

const OPTIONS = {
  kubernetes: { type: 'string' },
  spiffe: { type: 'string' },
  disable: { type: 'string' },
  'jwks-file': { type: 'string' },
  'jwks-uri': { type: 'string' },
  description: { type: 'string' },
  'out-dir': { type: 'string' },
  'no-index': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

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
  const forms = [values.kubernetes, values.spiffe, values.disable].filter((value) => value !== undefined).length;
  if (forms !== 1) problems.push('give exactly one of --kubernetes, --spiffe and --disable');
  let request: IssuerMigrationRequest | undefined;
  if (values.disable !== undefined) {
    for (const name of ['jwks-file', 'jwks-uri', 'description'] as const) if (values[name] !== undefined) problems.push(`--${name} does not apply to --disable`);
    request = { kind: 'disable', issuer: values.disable };
  } else {
    const issuerKind = values.spiffe !== undefined ? 'spiffe' : 'kubernetes';
    const issuer = values.spiffe ?? values.kubernetes ?? '';
    if (issuerKind === 'spiffe' && !SPIFFE_TRUST_DOMAIN.test(issuer)) problems.push(`--spiffe "${issuer}" must be a trust domain ID: spiffe://<lowercase name>, no path`);
    if (issuerKind === 'kubernetes' && !/^https:\/\/[^\s#?]+$/.test(issuer)) problems.push(`--kubernetes "${issuer}" must be the https issuer URL of the cluster's service-account tokens`);
    if ((values['jwks-file'] === undefined) === (values['jwks-uri'] === undefined)) problems.push('give exactly one of --jwks-file and --jwks-uri');
    const uriProblem = values['jwks-uri'] === undefined ? undefined : jwksUriProblem(values['jwks-uri']);
    if (uriProblem) problems.push(`--jwks-uri: ${uriProblem}`);
    const description = values.description;
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (description !== undefined && (description.length > 200 || /[\x00-\x1f]/.test(description))) problems.push('--description must be one line of at most 200 characters');
    request = { kind: 'create', issuer, issuerKind, jwksFile: values['jwks-file'], jwksUri: values['jwks-uri'], description };
  }
  if (request.issuer.length === 0 || request.issuer.length > 500) problems.push('the issuer must be 1 to 500 characters');
  if (problems.length > 0) throw new IssuerMigrationUsageError(problems.join('\n'));
  return { request, outDir: values['out-dir'] ?? 'migrations', updateIndex: !values['no-index'] };
}
