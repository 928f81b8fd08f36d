import { actorDepth, MAX_ACTOR_DEPTH, mayActFor, type ValidatedAccessToken } from '../tokens/access-token/access-token';
import { OAuthError } from '../protocol/oauth-error';
import { OFFLINE_ACCESS } from '../protocol/scope';
import { carriedScopes } from './grant-scopes';
import type { Delegation, GrantContext, GrantSuccess } from './grant-validator';

/** A success for the subject token's user, with its delegation. */
export type DelegatedGrant = GrantSuccess & { readonly delegation: Delegation };

/**
 * The rules shared by the `delegation` grant and RFC 8693 token exchange (docs/endpoints.md#token-endpoint, docs/tokens.md#delegated-tokens): the
 * new token is for the subject token's user, names the exchanging client in a nested `act`, never
 * outlives the subject token, keeps its `auth_time`, and reads no more about the user than it did.
 * `invalid` builds the grant's own error for a subject token it cannot accept.
 */
export function delegateSubjectToken(subjectToken: ValidatedAccessToken, context: GrantContext, invalid: (description: string) => OAuthError): DelegatedGrant {
  if (!subjectToken.subject) throw invalid('the subject token does not represent a user');
  // docs/dpop.md#bound-in-bound-out: a bound subject token is exchanged only for one bound to the exchanging client's key.
  if (subjectToken.confirmation && !context.dpop)
    throw new OAuthError('invalid_dpop_proof', 'the subject token is DPoP-bound: send a DPoP proof of your own key');
  // RFC 8693 §4.4: a subject token naming who may act for the user admits no other actor.
  if (!mayActFor(subjectToken.mayAct, context.client.clientId)) throw invalid('the subject token does not allow this client to act for its subject (may_act)');
  const actor = { client_id: context.client.clientId, ...(subjectToken.actor ? { act: subjectToken.actor } : {}) };
  if (actorDepth(actor) > MAX_ACTOR_DEPTH) throw invalid(`delegation chains are limited to ${MAX_ACTOR_DEPTH} actors`);
  const scopes = carriedScopes(context.scopes, (scope) => {
    if (scope === OFFLINE_ACCESS) return 'delegated tokens never come with refresh tokens';
    if (context.resources.isIdentityScope(scope) && !subjectToken.scopes.includes(scope)) {
      return `scope ${scope} was not granted to the subject token`;
    }
    return undefined;
  });
  return {
    subject: subjectToken.subject,
    scopes,
    authenticationMethods: [context.grantType],
    delegation: { actor, authTime: subjectToken.authTime, acr: subjectToken.acr, expiresAtMost: subjectToken.expiresAt },
  };
}
