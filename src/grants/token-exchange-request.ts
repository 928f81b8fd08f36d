import type { Client } from '../clients/client';
import { listParameter, stringParameter, type RequestParameters } from '../oauth/form';
import { OAuthError } from '../oauth/oauth-error';
import type { RequestedScopes } from '../oauth/scope';
import type { ResourceCatalog } from '../resources/resource-catalog';

export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** RFC 8693 §3 token type identifiers. */
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
export const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

// Our access tokens are JWTs, so a client may name either type for them.
const ACCEPTED_INPUT_TYPES: ReadonlySet<string> = new Set([ACCESS_TOKEN_TYPE, JWT_TOKEN_TYPE]);
const MAX_TARGETS = 20;

/** An RFC 8693 §2.1 request, its parameters checked. */
export interface TokenExchangeRequest {
  readonly subjectToken: string;
  readonly actorToken?: string;
  /** `audience` and `resource` values together, without repetition. */
  readonly targets: readonly string[];
}

/** Reads RFC 8693 §2.1 parameters; anything malformed is `invalid_request` (§2.2.2). */
export function readTokenExchangeRequest(parameters: RequestParameters): TokenExchangeRequest {
  const subjectToken = stringParameter(parameters, 'subject_token');
  if (!subjectToken) throw OAuthError.invalidRequest('subject_token is required');
  requireAccessTokenType(stringParameter(parameters, 'subject_token_type'), 'subject_token_type');
  const actorToken = stringParameter(parameters, 'actor_token');
  const actorTokenType = stringParameter(parameters, 'actor_token_type');
  if (actorToken !== undefined) {
    if (actorToken.length === 0) throw OAuthError.invalidRequest('actor_token is empty');
    requireAccessTokenType(actorTokenType, 'actor_token_type');
  } else if (actorTokenType !== undefined) {
    throw OAuthError.invalidRequest('actor_token_type must not be sent without actor_token');
  }
  const requestedTokenType = stringParameter(parameters, 'requested_token_type');
  if (requestedTokenType !== undefined && requestedTokenType !== ACCESS_TOKEN_TYPE) {
    throw OAuthError.invalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);
  }
  const targets = [...new Set([...listParameter(parameters, 'audience'), ...listParameter(parameters, 'resource')])];
  if (targets.some((target) => target.length === 0)) throw OAuthError.invalidRequest('audience and resource must not be empty');
  if (targets.length > MAX_TARGETS) throw OAuthError.invalidRequest(`at most ${MAX_TARGETS} audience and resource values may be sent`);
  return { subjectToken, actorToken, targets };
}

function requireAccessTokenType(value: string | undefined, name: string): void {
  if (value === undefined || value.length === 0) throw OAuthError.invalidRequest(`${name} is required`);
  if (!ACCEPTED_INPUT_TYPES.has(value)) throw OAuthError.invalidRequest(`${name} must be ${ACCESS_TOKEN_TYPE} or ${JWT_TOKEN_TYPE}`);
}

/**
 * RFC 8693 §2.1 `audience` / `resource`: each names an API resource (by its name, the `aud` of its
 * tokens) that the client is allowed a scope of, else `invalid_target` (§2.2.2). With targets, the
 * token carries only their API scopes: a default scope leaves the others out, an explicit one that
 * names another API, or none of a target's scopes, is `invalid_target`. Identity scopes pass
 * through for the delegation rules to judge.
 */
export function scopesForTargets(
  targets: readonly string[],
  requested: RequestedScopes,
  client: Client,
  resources: ResourceCatalog,
): RequestedScopes {
  if (targets.length === 0) return requested;
  const targetScopes = new Map<string, readonly string[]>();
  for (const target of targets) {
    const api = resources.resources.apiResources.find((resource) => resource.name === target);
    const allowed = api?.scopes.filter((scope) => client.allowedScopes.includes(scope)) ?? [];
    if (allowed.length === 0) throw OAuthError.invalidTarget(`the client may not obtain a token for ${target.slice(0, 200)}`);
    targetScopes.set(target, allowed);
  }
  const forTargets = new Set([...targetScopes.values()].flat());
  const isOtherApiScope = (scope: string) => resources.audiencesFor([scope]).length > 0 && !forTargets.has(scope);
  if (!requested.explicit) return { names: requested.names.filter((scope) => !isOtherApiScope(scope)), explicit: false };

  const outside = requested.names.filter(isOtherApiScope);
  if (outside.length > 0) throw OAuthError.invalidTarget(`scope ${outside.join(' ')} is not for the requested audience`);
  for (const [target, scopes] of targetScopes) {
    if (!scopes.some((scope) => requested.names.includes(scope))) {
      throw OAuthError.invalidTarget(`no requested scope grants access to ${target.slice(0, 200)}`);
    }
  }
  return requested;
}
