import { Inject, Injectable } from '@nestjs/common';
import type { ValidatedAccessToken } from '../tokens/access-token/access-token';
import { AccessTokenValidator } from '../tokens/access-token/access-token.validator';
import type { Client } from '../identity/clients/client';
import { OAuthError } from '../protocol/oauth-error';
import { SubjectTokenValidator } from '../tokens/subject-tokens/subject-token.validator';
import { buildDelegation } from './delegation-builder';
import type { GrantResult } from './grant-result';
import type { GrantContext } from './grant-validator';
import type { TokenExchangeHandler } from './token-exchange-handler';
import { ACCESS_TOKEN_TYPE, JWT_TOKEN_TYPE, scopesForTargets, type TokenExchangeRequest } from './token-exchange-request';

/**
 * RFC 8693 token exchange for an access token: the standard form of the `delegation` grant, with
 * the same rules (`SubjectTokenValidator`, `buildDelegation`). The subject token is one of ours
 * addressed to the exchanging client (docs/tokens.md#addressed-to-a-client), or one of a subject
 * issuer the client trusts (docs/delegation.md); its problems are `invalid_request` (§2.2.2).
 */
@Injectable()
export class AccessTokenExchangeHandler implements TokenExchangeHandler {
  // Our access tokens are JWTs, so a client may name either type for them.
  readonly subjectTokenType = [ACCESS_TOKEN_TYPE, JWT_TOKEN_TYPE];
  readonly requestedTokenType = ACCESS_TOKEN_TYPE;

  constructor(
    @Inject(SubjectTokenValidator) private readonly subjectTokens: Pick<SubjectTokenValidator, 'validate'>,
    @Inject(AccessTokenValidator) private readonly accessTokens: Pick<AccessTokenValidator, 'validate'>,
  ) {}

  async exchange(request: TokenExchangeRequest, context: GrantContext): Promise<GrantResult> {
    const scopes = scopesForTargets(request.targets, context.scopes, context.client, context.resources);
    const subjectToken = await this.subjectTokens.validate(request.subjectToken, context, { trustedIssuers: true }).catch(asInvalidRequest);
    if (request.actorToken !== undefined) requireActingClient(await this.validateActorToken(request.actorToken), context.client);
    let grant;
    try {
      grant = buildDelegation(subjectToken, { ...context, scopes });
    } catch (error) {
      asInvalidRequest(error);
    }
    const delegation = { ...grant.delegation, issuedTokenType: ACCESS_TOKEN_TYPE };
    // RFC 8707: a resource named by its URI is addressed by its URI, as at the other grants.
    const byUri = request.targets.some((target) => context.resources.apiResourceByUri(target) !== undefined);
    return { ...grant, delegation, ...(byUri ? { audience: request.targets } : {}) };
  }

  private validateActorToken(token: string): Promise<ValidatedAccessToken> {
    return this.accessTokens.validate(token).catch((error: unknown) => {
      if (error instanceof OAuthError) throw OAuthError.invalidRequest(`actor_token is not a valid access token: ${error.description}`);
      throw error;
    });
  }
}

/**
 * RFC 8693 §1.1: the actor is the party the new token names in `act`, which is always the
 * exchanging client, so an actor token must be that client's own token (no `sub`: not a user's).
 */
function requireActingClient(actorToken: ValidatedAccessToken, client: Client): void {
  if (actorToken.clientId !== client.clientId || actorToken.subject !== undefined) {
    throw OAuthError.invalidRequest('actor_token does not represent the requesting client');
  }
}

/** RFC 8693 §2.2.2: a subject token that cannot be accepted is `invalid_request`; other answers keep their code. */
function asInvalidRequest(error: unknown): never {
  if (error instanceof OAuthError && error.code === 'invalid_grant') throw OAuthError.invalidRequest(error.description ?? 'the subject token is invalid');
  throw error;
}
