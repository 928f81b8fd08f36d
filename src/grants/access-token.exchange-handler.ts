import { Inject, Injectable } from '@nestjs/common';
import type { ValidatedAccessToken } from '../tokens/access-token/access-token';
import { AccessTokenValidator } from '../tokens/access-token/access-token.validator';
import type { Client } from '../identity/clients/client';
import { OAuthError } from '../protocol/oauth-error';
import { ExternalSubjectTokenValidator } from '../tokens/subject-tokens/external-subject-token.validator';
import type { GrantContext, GrantResult } from './grant-validator';
import { delegateSubjectToken } from './subject-token-delegation';
import type { TokenExchangeHandler } from './token-exchange-handler';
import { ACCESS_TOKEN_TYPE, scopesForTargets, TXN_TOKEN_TYPE, type TokenExchangeRequest } from './token-exchange-request';

/**
 * RFC 8693 token exchange for an access token: the standard form of the `delegation` grant, with
 * the same rules (the shared `delegateSubjectToken`). The subject token is one of ours addressed to
 * the exchanging client (docs/tokens.md#addressed-to-a-client), or one of a subject issuer the client trusts
 * (docs/delegation.md); its problems are `invalid_request`.
 */
@Injectable()
export class AccessTokenExchangeHandler implements TokenExchangeHandler {
  readonly requestedTokenType = ACCESS_TOKEN_TYPE;

  constructor(
    @Inject(AccessTokenValidator) private readonly accessTokens: Pick<AccessTokenValidator, 'validate'>,
    @Inject(ExternalSubjectTokenValidator) private readonly externalTokens: Pick<ExternalSubjectTokenValidator, 'validate'>,
  ) {}

  async exchange(request: TokenExchangeRequest, context: GrantContext): Promise<GrantResult> {
    // A transaction token stays inside its trust domain: it is never turned back into an access token.
    if (request.subjectTokenType === TXN_TOKEN_TYPE) throw OAuthError.invalidRequest('a transaction token cannot be exchanged for an access token');
    const scopes = scopesForTargets(request.targets, context.scopes, context.client, context.resources);
    const external = await this.externalTokens.validate(request.subjectToken, context.client).catch(invalidSubjectToken);
    const subjectToken = external?.token ?? (await this.validateToken(request.subjectToken, 'subject_token'));
    // An external token's aud names the audience its issuer was registered with, checked already.
    if (!external && !context.resources.isAddressedTo(subjectToken.audiences, context.client.clientId)) {
      throw OAuthError.invalidRequest('the subject token is not addressed to this client (aud)');
    }
    if (request.actorToken !== undefined) requireActingClient(await this.validateToken(request.actorToken, 'actor_token'), context.client);
    const grant = delegateSubjectToken(subjectToken, { ...context, scopes }, (description) => OAuthError.invalidRequest(description));
    const delegation = { ...grant.delegation, issuedTokenType: ACCESS_TOKEN_TYPE, ...(external ? { subjectIssuer: external.issuer } : {}) };
    // RFC 8707: a resource named by its URI is addressed by its URI, as at the other grants.
    const byUri = request.targets.some((target) => context.resources.apiResourceByUri(target) !== undefined);
    return { ...grant, delegation, ...(byUri ? { audience: request.targets } : {}) };
  }

  private validateToken(token: string, name: string): Promise<ValidatedAccessToken> {
    return this.accessTokens.validate(token).catch((error: unknown) => {
      if (error instanceof OAuthError) throw OAuthError.invalidRequest(`${name} is not a valid access token: ${error.description}`);
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

function invalidSubjectToken(error: unknown): never {
  if (error instanceof OAuthError) throw OAuthError.invalidRequest(`subject_token is not valid: ${error.description}`);
  throw error;
}
