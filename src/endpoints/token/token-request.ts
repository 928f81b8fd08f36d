import type { Client } from '../../identity/clients/client';
import { GrantParameterSchema } from '../../protocol/grant-parameters';
import type { GrantValidator } from '../../grants/grant-validator';
import { singleParameter, type FormBody, type RequestParameters } from '../../protocol/form';
import { pickDeclaredParameters, validateParameters } from '../../protocol/form-parameters';
import { OAuthError } from '../../protocol/oauth-error';
import { resolveRequestedScopes, type RequestedScopes } from '../../protocol/scope';
import type { ApiResource } from '../../identity/resources/resource';
import type { ResourceCatalog } from '../../identity/resources/resource-catalog';
import { readResourceIndicators, resolveResourceIndicators } from '../../identity/resources/resource-indicators';

/** A token request read once (RFC 6749 §3.2, docs/endpoints.md#token-endpoint): all a grant and the pipeline see of the body. */
export interface TokenRequest<P extends object = object> {
  readonly grantType: string;
  readonly scopes: RequestedScopes;
  /** RFC 8707 `resource`, for a grant that reads it; empty otherwise. */
  readonly resourceIndicators: readonly ApiResource[];
  /** The grant's DTO, validated. */
  readonly parameters: P;
  /** The parameters the grant declared, as sent. */
  readonly rawParameters: RequestParameters;
}

/** `grant_type`, which chooses the grant that reads the rest. */
export function readGrantType(body: FormBody): string {
  const grantType = singleParameter(body, 'grant_type');
  if (!grantType) throw OAuthError.invalidRequest('grant_type is required');
  return grantType;
}

/**
 * The rest of the request for the grant chosen: no parameter repeated but those it declares
 * repeatable (and RFC 8707 `resource` for a grant that reads it, resolved first), `scope` known and allowed (defaulted when omitted), then its own parameters, each
 * checked once (`pickDeclaredParameters`) and validated as its DTO; undeclared ones are dropped.
 */
export function readTokenRequest<P extends object>(
  grantType: string,
  body: FormBody,
  validator: GrantValidator<P>,
  client: Client,
  catalog: ResourceCatalog,
): TokenRequest<P> {
  rejectRepeatedParameters(body, validator);
  // RFC 8707: before the scope, so that invalid_target wins over invalid_scope.
  const resourceIndicators = validator.resourceIndicators ? resolveResourceIndicators(readResourceIndicators(body.resource), catalog, client) : [];
  const scopes = resolveRequestedScopes(singleParameter(body, 'scope'), client.allowedScopes, (scope) => catalog.isKnownScope(scope));
  const refusal = { error: validator.parameterError ?? 'invalid_request' } as const;
  const rawParameters = pickDeclaredParameters(validator.parameters, body);
  return { grantType, scopes, resourceIndicators, parameters: validateParameters(validator.parameters, rawParameters, refusal), rawParameters };
}

/** RFC 6749 §3.2: no parameter may repeat, except those the grant declares repeatable. */
function rejectRepeatedParameters(body: FormBody, validator: GrantValidator): void {
  const { repeatable } = GrantParameterSchema.of(validator.parameters);
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value) && !repeatable.has(name) && !(name === 'resource' && validator.resourceIndicators)) {
      throw OAuthError.invalidRequest(`parameter ${name.slice(0, 64)} must not be repeated`);
    }
  }
}
