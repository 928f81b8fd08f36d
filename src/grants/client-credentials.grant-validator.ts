import { Injectable } from '@nestjs/common';
import { OFFLINE_ACCESS } from '../oauth/scope';
import { carriedScopes } from './grant-scopes';
import type { GrantContext, GrantResult, GrantValidator } from './grant-validator';

/** RFC 6749 §4.4.2: nothing besides `grant_type` and `scope`. */
export class ClientCredentialsParameters {}

/** RFC 6749 §4.4: a token for the client itself, so without user (identity) scopes. */
@Injectable()
export class ClientCredentialsGrantValidator implements GrantValidator<ClientCredentialsParameters> {
  readonly grantType = 'client_credentials';
  readonly parameters = ClientCredentialsParameters;

  async validate(_parameters: ClientCredentialsParameters, { scopes, resources }: GrantContext): Promise<GrantResult> {
    return {
      scopes: carriedScopes(scopes, (scope) =>
        resources.isIdentityScope(scope) || scope === OFFLINE_ACCESS ? `scope ${scope} needs a user and cannot be granted to a client alone` : undefined,
      ),
    };
  }
}
