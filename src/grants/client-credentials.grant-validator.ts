import { OFFLINE_ACCESS } from '../oauth/scope';
import { carriedScopes } from './grant-scopes';
import type { GrantContext, GrantSuccess, GrantValidator } from './grant-validator';

/** RFC 6749 §4.4: a token for the client itself, so without user (identity) scopes. */
export class ClientCredentialsGrantValidator implements GrantValidator {
  readonly grantType = 'client_credentials';
  readonly parameters: ReadonlySet<string> = new Set();

  async validate({ scopes, resources }: GrantContext): Promise<GrantSuccess> {
    return {
      scopes: carriedScopes(scopes, (scope) =>
        resources.isIdentityScope(scope) || scope === OFFLINE_ACCESS
          ? `scope ${scope} needs a user and cannot be granted to a client alone`
          : undefined,
      ),
    };
  }
}
