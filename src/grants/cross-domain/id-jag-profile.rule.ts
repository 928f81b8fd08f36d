import { OAuthError } from '../../index';
import { stringList } from './cross-domain';

/** What an ID-JAG bounds besides its subject. */
export interface IdJagBounds {
  /** Its `scope`, when present: the granted scopes are within it. */
  readonly scopes?: readonly string[];
  /** Its `resource`, when present: the token's `aud`, which a `resource` parameter may narrow. */
  readonly resources?: readonly string[];
}

const MAX_SCOPES = 100;
const MAX_RESOURCES = 16;

/**
 * draft-ietf-oauth-identity-assertion-authz-grant: an ID-JAG names the client it was issued for
 * (`client_id`, which must be the authenticated client's id here), and may carry `scope` (a string of
 * space-separated scopes) and `resource` (a string or an array of URIs) as bounds.
 */
export class IdJagProfileRule {
  check(claims: Readonly<Record<string, unknown>>, clientId: string): IdJagBounds {
    if (claims.client_id === undefined) throw OAuthError.invalidGrant('the ID-JAG has no client_id');
    if (claims.client_id !== clientId) throw OAuthError.invalidGrant('the ID-JAG was issued for another client (client_id)');
    return { ...this.scopes(claims.scope), ...this.resources(claims.resource) };
  }

  private scopes(scope: unknown): IdJagBounds {
    if (scope === undefined) return {};
    if (typeof scope !== 'string') throw OAuthError.invalidGrant('the ID-JAG scope is not a string');
    const scopes = [...new Set(scope.split(' ').filter((name) => name.length > 0))];
    if (scopes.length > MAX_SCOPES) throw OAuthError.invalidGrant(`the ID-JAG names more than ${MAX_SCOPES} scopes`);
    return { scopes };
  }

  private resources(resource: unknown): IdJagBounds {
    if (resource === undefined) return {};
    const resources = stringList(resource);
    if (!resources || resources.length === 0) throw OAuthError.invalidGrant('the ID-JAG resource is not a URI or a list of URIs');
    if (resources.length > MAX_RESOURCES) throw OAuthError.invalidGrant(`the ID-JAG names more than ${MAX_RESOURCES} resources`);
    return { resources: [...new Set(resources)] };
  }
}
