import { weakKeyProblem } from '../../src/protocol/jwk-strength';
import { jwksUriProblem } from '../../src/identity/trusted-issuers/jwks-uri';
import { spiffeTrustDomainOf } from '../../src/identity/trusted-issuers/trusted-issuer';

export interface WorkloadIdentityArgument {
  /** The trusted workload issuer: the cluster's issuer URL, or the SPIFFE trust domain `spiffe://<name>`. */
  readonly issuer: string;
  readonly subject: string;
}

const SERVICE_ACCOUNT = /^system:serviceaccount:[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?:[a-z0-9]([-.a-z0-9]{0,251}[a-z0-9])?$/;
const MAX_JWKS_KEYS = 100;

export function jwksUriArgumentProblem(uri: string): string | undefined {
  const problem = jwksUriProblem(uri);
  return problem && `--jwks-uri: ${problem}`;
}

/** A SPIFFE ID names its trust domain; a Kubernetes service account needs the cluster's issuer beside it. */
export function checkWorkloadIdentity(identity: string, issuer: string | undefined, problems: string[]): WorkloadIdentityArgument | undefined {
  if (identity.startsWith('spiffe://')) {
    const trustDomain = spiffeTrustDomainOf(identity);
    if (!trustDomain) problems.push(`--workload "${identity}" is not a SPIFFE ID of a workload (spiffe://<trust domain>/<path>)`);
    if (issuer !== undefined) problems.push('--workload-issuer does not apply to a SPIFFE ID: its trust domain is the issuer');
    return trustDomain ? { issuer: trustDomain, subject: identity } : undefined;
  }
  if (!SERVICE_ACCOUNT.test(identity)) {
    problems.push(`--workload "${identity}" must be a SPIFFE ID or a Kubernetes service account, system:serviceaccount:<namespace>:<name>`);
    return undefined;
  }
  if (issuer === undefined || !/^https:\/\/\S+$/.test(issuer)) {
    problems.push('--workload-issuer <https URL> is required with a Kubernetes service account: the issuer of the cluster that signs its tokens');
    return undefined;
  }
  return { issuer, subject: identity };
}

/**
 * A public JWK Set for private_key_jwt, read from --jwks-file: a set (`{"keys": [...]}`) or one key.
 * Private or symmetric key material is refused: the file is copied into a migration.
 */
export function checkJwksDocument(document: unknown, problems: string[]): { keys: object[] } | undefined {
  const keys = Array.isArray((document as { keys?: unknown })?.keys) ? (document as { keys: unknown[] }).keys : [document];
  const problem = (text: string) => {
    problems.push(`--jwks-file: ${text}`);
    return undefined;
  };
  if (keys.length === 0 || keys.length > MAX_JWKS_KEYS) return problem(`the JWK Set must hold 1 to ${MAX_JWKS_KEYS} keys`);
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || typeof (key as { kty?: unknown }).kty !== 'string')
      return problem('every key must be a JWK object with "kty"');
    if (['d', 'k', 'p', 'q'].some((member) => member in key)) return problem('the file holds private or symmetric key material: register only the public keys');
    const weak = weakKeyProblem(key);
    if (weak) return problem(weak);
  }
  return { keys: keys as object[] };
}
