import { ACR_PHISHING_RESISTANT, isSupportedAcr, type AcrRequirement } from './authentication-context';
import { OAuthError } from './oauth-error';

export interface AcrRequestInput {
  /** OpenID Connect Core §3.1.2.1 `acr_values`: space-separated, in order of preference. */
  readonly acrValues?: string;
  /** OpenID Connect Core §5.5 `claims`: a JSON object; only `id_token.acr` is read. */
  readonly claims?: string;
  /** The client is registered as requiring a phishing-resistant sign-in (docs/passkeys.md#step-up). */
  readonly clientRequiresPhr?: boolean;
}

/**
 * The `acr` an authorization request needs (RFC 9470 §4, docs/passkeys.md#step-up). `acr_values`
 * and a voluntary `acr` claim are honoured for the values this service knows, and ignored when none
 * is known (OpenID Connect Core §3.1.2.1: they are voluntary); an essential `acr` claim naming only
 * unknown values cannot be met. A client that requires `phr` gets `phr`, whatever the request says.
 */
export function readAcrRequirement({ acrValues, claims, clientRequiresPhr }: AcrRequestInput): AcrRequirement | undefined {
  const claimed = readAcrClaim(claims);
  let requirement = claimed ?? known(acrValues?.split(' ') ?? []);
  if (clientRequiresPhr) requirement = [ACR_PHISHING_RESISTANT];
  return requirement;
}

function known(values: readonly string[]): AcrRequirement | undefined {
  const acceptable = values.filter(isSupportedAcr);
  return acceptable.length > 0 ? acceptable : undefined;
}

/** `{"id_token": {"acr": {"essential": true, "values": ["phr"]}}}` (or `value`), OpenID Connect Core §5.5.1. */
function readAcrClaim(claims: string | undefined): AcrRequirement | undefined {
  if (claims === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(claims);
  } catch {
    throw OAuthError.invalidRequest('claims is not a JSON object');
  }
  if (!isObject(parsed)) throw OAuthError.invalidRequest('claims is not a JSON object');
  const idToken = parsed.id_token;
  if (idToken === undefined || idToken === null) return undefined;
  if (!isObject(idToken)) throw OAuthError.invalidRequest('claims.id_token is not a JSON object');
  const acr = idToken.acr;
  if (acr === undefined || acr === null) return undefined;
  if (!isObject(acr)) throw OAuthError.invalidRequest('claims.id_token.acr is not a JSON object or null');
  const values = acr.values !== undefined ? acr.values : acr.value !== undefined ? [acr.value] : [];
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) {
    throw OAuthError.invalidRequest('claims.id_token.acr values must be strings');
  }
  const requirement = known(values as string[]);
  if (requirement === undefined && acr.essential === true && values.length > 0) {
    throw OAuthError.unmetAuthenticationRequirements('none of the essential acr values is supported');
  }
  return requirement;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
