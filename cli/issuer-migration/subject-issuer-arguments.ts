import { CLIENT_ID } from '../client-migration/client-migration-arguments';
import { isScopeToken } from '../../src/protocol/scope';

/** What a subject issuer's tokens must say to be exchanged, and who trusts it (docs/delegation.md#tokens-from-your-identity-provider). */
export interface SubjectIssuerSettings {
  readonly audience: string;
  readonly userClaim: string;
  readonly identityScopes: readonly string[];
  readonly trustedBy: readonly string[];
}

/** What `--subject <registered issuer>` without keys changes; absent settings stay as they are. */
export interface SubjectIssuerChanges {
  readonly audience?: string;
  readonly userClaim?: string;
  readonly identityScopes?: readonly string[];
  /** Clients that start trusting it; those that already do are left as they are. */
  readonly trustedBy: readonly string[];
}

export interface SubjectIssuerFlags {
  readonly audience?: string;
  readonly 'user-claim'?: string;
  readonly 'identity-scope'?: readonly string[];
  readonly 'trusted-by'?: readonly string[];
}

export const SUBJECT_FLAGS = ['audience', 'user-claim', 'identity-scope', 'trusted-by'] as const;

const MAX_IDENTITY_SCOPES = 20;
const MAX_TRUSTING_CLIENTS = 50;
// Printable ASCII without spaces: a client_id, an API name or a URI, as the issuer writes it in `aud`.
const AUDIENCE = /^[\x21-\x7e]{1,200}$/;
// A JSON member name usable as a claim on both sides: no spaces, quotes or control characters.
const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
// Claims about the token or Tollgate's own subject id, never a property of the user both sides share.
const NOT_USER_CLAIMS = new Set([
  'iss',
  'sub',
  'aud',
  'exp',
  'nbf',
  'iat',
  'jti',
  'act',
  'may_act',
  'scope',
  'client_id',
  'azp',
  'cnf',
  'nonce',
  'auth_time',
  'amr',
  'acr',
]);

/** Checks the subject-issuer flags of `--subject` registering an issuer; each mistake is pushed to `problems`. */
export function checkSubjectIssuerSettings(flags: SubjectIssuerFlags, problems: string[]): SubjectIssuerSettings {
  if (flags.audience === undefined) problems.push('--audience <the aud its tokens carry for Tollgate> is required with --subject');
  if (flags['user-claim'] === undefined) problems.push('--user-claim <the claim that names the local user, e.g. email> is required with --subject');
  const { audience = '', userClaim = '', identityScopes = [], trustedBy } = checkSubjectIssuerChanges(flags, problems);
  return { audience, userClaim, identityScopes, trustedBy };
}

/** Checks the subject-issuer flags of `--subject` changing a registered issuer (no keys given). */
export function checkSubjectIssuerChanges(flags: SubjectIssuerFlags, problems: string[]): SubjectIssuerChanges {
  const { audience, 'user-claim': userClaim } = flags;
  if (audience !== undefined && !AUDIENCE.test(audience))
    problems.push(`--audience "${audience.slice(0, 200)}" must be 1 to 200 printable characters without spaces`);
  if (userClaim !== undefined && !CLAIM_NAME.test(userClaim))
    problems.push(`--user-claim "${userClaim.slice(0, 64)}" must be a claim name: 1 to 64 letters, digits and _ . : -, starting with a letter or _`);
  else if (userClaim !== undefined && NOT_USER_CLAIMS.has(userClaim))
    problems.push(`--user-claim "${userClaim}" describes the token, not the user: use a claim both sides hold, e.g. email`);
  // A space-separated list is accepted too (`--identity-scope "openid profile"`), as `scope` is written.
  const identityScopes = distinct((flags['identity-scope'] ?? []).flatMap((value) => value.split(' ')));
  for (const scope of identityScopes)
    if (!isScopeToken(scope)) problems.push(`--identity-scope "${scope.slice(0, 100)}" is not a valid scope token (RFC 6749 §3.3)`);
  if (identityScopes.length > MAX_IDENTITY_SCOPES) problems.push(`at most ${MAX_IDENTITY_SCOPES} --identity-scope`);
  const trustedBy = distinct(flags['trusted-by'] ?? []);
  for (const clientId of trustedBy)
    if (!CLIENT_ID.test(clientId))
      problems.push(`--trusted-by "${clientId.slice(0, 100)}" must be a client id: 1 to 100 characters, letters, digits and . _ ~ -`);
  if (trustedBy.length > MAX_TRUSTING_CLIENTS) problems.push(`at most ${MAX_TRUSTING_CLIENTS} --trusted-by`);
  return { audience, userClaim, ...(flags['identity-scope'] === undefined ? {} : { identityScopes }), trustedBy };
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))];
}
