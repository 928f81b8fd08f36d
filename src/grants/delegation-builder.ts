import { actorDepth, MAX_ACTOR_DEPTH } from '../tokens/access-token/access-token';
import type { SubjectToken } from '../tokens/subject-tokens/subject-token.validator';
import { OAuthError } from '../protocol/oauth-error';
import { OFFLINE_ACCESS } from '../protocol/scope';
import { carriedScopes } from './grant-scopes';
import type { Delegation, GrantSuccess } from './grant-result';
import type { GrantContext } from './grant-validator';

/** A success for the subject token's user, with its delegation. */
export type DelegatedGrant = GrantSuccess & { readonly subject: string; readonly scopes: readonly string[]; readonly delegation: Delegation };

/**
 * The success of a grant that delegates a subject token (one `SubjectTokenValidator` accepted), with
 * the rules of the `delegation` grant and RFC 8693 token exchange (docs/tokens.md#delegated-tokens):
 * the new token is for the subject token's user, names the exchanging client in a nested `act`,
 * never outlives the subject token, keeps its `auth_time` and `acr`, reads no more about the user
 * than it did, and comes with no refresh token. A chain too long is `invalid_grant`; a scope the
 * subject token cannot pass on is `invalid_scope` when asked for, left out otherwise.
 */
export function buildDelegation(subjectToken: SubjectToken, context: Pick<GrantContext, 'client' | 'scopes' | 'resources' | 'grantType'>): DelegatedGrant {
  const actor = { client_id: context.client.clientId, ...(subjectToken.act ? { act: subjectToken.act } : {}) };
  if (actorDepth(actor) > MAX_ACTOR_DEPTH) throw OAuthError.invalidGrant(`delegation chains are limited to ${MAX_ACTOR_DEPTH} actors`);
  const scopes = carriedScopes(context.scopes, (scope) => {
    if (scope === OFFLINE_ACCESS) return 'delegated tokens never come with refresh tokens';
    if (context.resources.isIdentityScope(scope) && !subjectToken.scopes.includes(scope)) {
      return `scope ${scope} was not granted to the subject token`;
    }
    return undefined;
  });
  const delegation: Delegation = {
    actor,
    expiresAtMost: subjectToken.expiresAt,
    ...(subjectToken.authTime === undefined ? {} : { authTime: subjectToken.authTime }),
    ...(subjectToken.acr === undefined ? {} : { acr: subjectToken.acr }),
    ...(subjectToken.issuer === undefined ? {} : { subjectIssuer: subjectToken.issuer }),
  };
  return { subject: subjectToken.subject, scopes, authenticationMethods: [context.grantType], delegation };
}
