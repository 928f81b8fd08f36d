import { OAuthError } from '../protocol/oauth-error';
import type { RequestedScopes } from '../protocol/scope';

/**
 * The scopes a grant issues: a scope the grant cannot carry is `invalid_scope` when the client
 * asked for it, and silently left out of the default set (docs/endpoints.md#scopes: "that the grant can carry").
 * `refusal` returns why a scope cannot be carried, or undefined when it can.
 */
export function carriedScopes(requested: RequestedScopes, refusal: (scope: string) => string | undefined): string[] {
  const carried: string[] = [];
  for (const scope of requested.names) {
    const reason = refusal(scope);
    if (reason === undefined) carried.push(scope);
    else if (requested.explicit) throw OAuthError.invalidScope(reason);
  }
  return carried;
}
