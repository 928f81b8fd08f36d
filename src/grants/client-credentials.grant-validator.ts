import { Injectable } from '@nestjs/common';
import { OFFLINE_ACCESS } from '../protocol/scope';
import { scopesForResources } from '../identity/resources/resource-indicators';
import { carriedScopes } from './grant-scopes';
import type { GrantContext, GrantResult, GrantValidator } from './grant-validator';

/** RFC 6749 §4.4.2: nothing besides `grant_type` and `scope`. */
export class ClientCredentialsParameters {}

/** RFC 6749 §4.4: a token for the client itself, so without user (identity) scopes. */
@Injectable()
export class ClientCredentialsGrantValidator implements GrantValidator<ClientCredentialsParameters> {
  readonly grantType = 'client_credentials';
  readonly parameters = ClientCredentialsParameters;
  readonly resourceIndicators = true;

  /** With RFC 8707 `resource`, the token is for exactly those resources, with only their scopes. */
  async validate(_parameters: ClientCredentialsParameters, { scopes, resources, resourceIndicators: targets }: GrantContext): Promise<GrantResult> {
    const forTargets = { names: scopesForResources(scopes, targets, resources), explicit: scopes.explicit };
    return {
      scopes: carriedScopes(forTargets, (scope) =>
        resources.isIdentityScope(scope) || scope === OFFLINE_ACCESS ? `scope ${scope} needs a user and cannot be granted to a client alone` : undefined,
      ),
      audience: targets.length > 0 ? targets.map((api) => api.uri ?? '') : undefined,
    };
  }
}
