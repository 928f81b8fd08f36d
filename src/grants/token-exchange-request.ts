import { IsArray, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Client } from '../identity/clients/client';
import { MAX_PARAMETER_LENGTH } from '../protocol/form';
import { OAuthError } from '../protocol/oauth-error';
import type { RequestedScopes } from '../protocol/scope';
import type { ResourceCatalog } from '../identity/resources/resource-catalog';

export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** RFC 8693 §3 token type identifiers. */
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
export const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
/** draft-ietf-oauth-transaction-tokens: a transaction token (docs/transaction-tokens.md). */
export const TXN_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:txn_token';

// Our access tokens are JWTs, so a client may name either type for them.
const ACCEPTED_INPUT_TYPES = [ACCESS_TOKEN_TYPE, JWT_TOKEN_TYPE];
const acceptedType = (name: string) => ({ message: `${name} must be ${ACCESS_TOKEN_TYPE} or ${JWT_TOKEN_TYPE}` });
const MAX_TARGETS = 20;
const EMPTY_TARGET = { each: true, message: 'audience and resource must not be empty' };

/**
 * RFC 8693 §2.1 request parameters; anything malformed is `invalid_request` (§2.2.2).
 * Class-validator runs a member's decorators bottom-up: presence first.
 */
export class TokenExchangeParameters {
  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString({ message: 'subject_token is required' })
  @IsNotEmpty({ message: 'subject_token is required' })
  subject_token!: string;

  /** Which handler accepts the subject token, with `requested_token_type`: the token-exchange validator dispatches on both. */
  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString({ message: 'subject_token_type must not be repeated' })
  @IsNotEmpty({ message: 'subject_token_type is required' })
  subject_token_type!: string;

  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsNotEmpty({ message: 'actor_token is empty' })
  @IsOptional()
  actor_token?: string;

  @IsIn(ACCEPTED_INPUT_TYPES, acceptedType('actor_token_type'))
  @IsNotEmpty({ message: 'actor_token_type is required' })
  @IsOptional()
  actor_token_type?: string;

  /** Which handler issues the token: the token-exchange validator dispatches on it. */
  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString({ message: 'requested_token_type must not be repeated' })
  @IsOptional()
  requested_token_type?: string;

  @IsNotEmpty(EMPTY_TARGET)
  @IsArray()
  @IsOptional()
  audience?: string[];

  @IsNotEmpty(EMPTY_TARGET)
  @IsArray()
  @IsOptional()
  resource?: string[];

  /** Transaction tokens: JSON objects of at most 4 KiB, checked by their handler (docs/transaction-tokens.md). */
  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString()
  @IsOptional()
  request_context?: string;

  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString()
  @IsOptional()
  request_details?: string;
}

/** An RFC 8693 §2.1 request, its parameters checked. */
export interface TokenExchangeRequest {
  readonly subjectToken: string;
  readonly subjectTokenType: string;
  readonly actorToken?: string;
  /** `requested_token_type`, the access token type when omitted (RFC 8693 §2.1). */
  readonly requestedTokenType: string;
  /** Raw `request_context` / `request_details` of a transaction-token request. */
  readonly requestContext?: string;
  readonly requestDetails?: string;
  /** `audience` and `resource` values together, without repetition. */
  readonly targets: readonly string[];
}

/** The checks that span members of validated RFC 8693 §2.1 parameters; failures are `invalid_request`. */
export function readTokenExchangeRequest(parameters: TokenExchangeParameters): TokenExchangeRequest {
  const { subject_token: subjectToken, actor_token: actorToken, actor_token_type: actorTokenType } = parameters;
  if (actorToken !== undefined && actorTokenType === undefined) throw OAuthError.invalidRequest('actor_token_type is required');
  if (actorToken === undefined && actorTokenType !== undefined) {
    throw OAuthError.invalidRequest('actor_token_type must not be sent without actor_token');
  }
  const targets = [...new Set([...(parameters.audience ?? []), ...(parameters.resource ?? [])])];
  if (targets.length > MAX_TARGETS) throw OAuthError.invalidRequest(`at most ${MAX_TARGETS} audience and resource values may be sent`);
  return {
    subjectToken,
    subjectTokenType: parameters.subject_token_type,
    actorToken,
    requestedTokenType: parameters.requested_token_type ?? ACCESS_TOKEN_TYPE,
    targets,
    requestContext: parameters.request_context,
    requestDetails: parameters.request_details,
  };
}

/**
 * RFC 8693 §2.1 `audience` / `resource`: each names an API resource (by its name, the `aud` of its
 * tokens, or its RFC 8707 resource URI) that the client is allowed a scope of, else `invalid_target` (§2.2.2). With targets, the
 * token carries only their API scopes: a default scope leaves the others out, an explicit one that
 * names another API, or none of a target's scopes, is `invalid_target`. Identity scopes pass
 * through for the delegation rules to judge.
 */
export function scopesForTargets(targets: readonly string[], requested: RequestedScopes, client: Client, resources: ResourceCatalog): RequestedScopes {
  if (targets.length === 0) return requested;
  const targetScopes = new Map<string, readonly string[]>();
  for (const target of targets) {
    const api = resources.apiResource(target);
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
