import { OAuthError, type GrantContext } from '../../index';

const OFFLINE_ACCESS = 'offline_access';

/** What the scopes of a redeemed assertion are bounded by. */
export interface ScopeBounds {
  /** The identity scopes the issuer's assertions may carry. */
  readonly identityScopes: readonly string[];
  /** An ID-JAG's `scope`, when it has one. */
  readonly assertionScopes?: readonly string[];
  /** The names of the API resources of the token's `aud`, when resources were named: only their API scopes are granted. */
  readonly audience?: readonly string[];
}

type Catalog = Pick<GrantContext['resources'], 'isIdentityScope' | 'audiencesFor'>;

/**
 * The scopes of the access token a JWT authorization grant yields: the requested ones (the client's
 * allowed ones by default), within an ID-JAG's `scope`, identity scopes within the issuer's list,
 * API scopes of the requested resources only, never `offline_access` (no refresh token). A scope
 * the client named outside a bound is `invalid_scope`; a defaulted one is left out.
 */
export function assertionGrantScopes(requested: GrantContext['scopes'], bounds: ScopeBounds, catalog: Catalog): string[] {
  const granted: string[] = [];
  for (const scope of requested.names) {
    const refusal = refusalOf(scope, bounds, catalog);
    if (refusal === undefined) granted.push(scope);
    else if (requested.explicit) throw OAuthError.invalidScope(refusal);
  }
  if (granted.length === 0) throw OAuthError.invalidScope('none of the requested scopes can be granted for this assertion');
  return granted;
}

function refusalOf(scope: string, bounds: ScopeBounds, catalog: Catalog): string | undefined {
  if (scope === OFFLINE_ACCESS) return 'a JWT authorization grant never yields a refresh token (offline_access)';
  if (bounds.assertionScopes && !bounds.assertionScopes.includes(scope)) return `scope ${scope} is outside the ID-JAG's scope`;
  if (catalog.isIdentityScope(scope)) {
    return bounds.identityScopes.includes(scope) ? undefined : `the assertion's issuer may not grant the identity scope ${scope}`;
  }
  const audience = bounds.audience;
  if (audience && !catalog.audiencesFor([scope]).some((api) => audience.includes(api))) return `scope ${scope} is not for the requested resource`;
  return undefined;
}
