import { Inject, Injectable } from '@nestjs/common';
import type { Client } from '../../identity/clients/client';
import type { ResourceCatalog } from '../../identity/resources/resource-catalog';
import type { UserDirectory } from '../../identity/users/user-directory';
import { UserStore } from '../../identity/users/user.store';
import { OAuthError } from '../../protocol/oauth-error';
import { mayActFor, type ActorClaim, type ValidatedAccessToken } from '../access-token/access-token';
import { AccessTokenValidator } from '../access-token/access-token.validator';
import { ExternalSubjectTokenValidator } from './external-subject-token.validator';

/** What a subject token is judged against: the grant's context (`GrantContext` is one). */
export interface SubjectTokenContext {
  /** The exchanging client: the token must be addressed to it, and `may_act` must allow it. */
  readonly client: Client;
  readonly resources: Pick<ResourceCatalog, 'isAddressedTo'>;
  /** The request's valid DPoP proof: a bound subject token is accepted only with one (docs/dpop.md#bound-in-bound-out). */
  readonly dpop?: { readonly jkt: string };
}

export interface SubjectTokenOptions {
  /**
   * Also accept a token of a trusted subject issuer the client trusts (docs/delegation.md), as RFC 8693
   * token exchange does; false by default, as the `delegation` grant accepts only this issuer's tokens.
   */
  readonly trustedIssuers?: boolean;
}

/** A subject token that passed every rule of the `delegation` grant. Times are epoch seconds. */
export interface SubjectToken {
  /** The local user it represents. */
  readonly subject: string;
  readonly scopes: readonly string[];
  /** RFC 8693 §4.1: who already acts for the user; a delegation nests it. */
  readonly act?: ActorClaim;
  readonly authTime?: number;
  readonly expiresAt: number;
  /** RFC 9449 §6.1: the key a DPoP-bound token is bound to. */
  readonly cnf?: { readonly jkt: string };
  /** How the user signed in (docs/passkeys.md#authentication-context), kept by a delegation. */
  readonly acr?: string;
  /** The trusted subject issuer of an external token (docs/delegation.md); absent for Tollgate's own. */
  readonly issuer?: string;
}

/**
 * Validates a subject token as the `delegation` grant does (docs/extending.md#delegating-a-users-token):
 * an access token of this issuer (signature, `typ`, `iss`, `exp`, revocation and the deny list), or
 * with `trustedIssuers` also a token of a subject issuer the client trusts (docs/delegation.md); then the user is known and
 * enabled, the token is addressed to the client (docs/tokens.md#addressed-to-a-client), `may_act`
 * allows the client, and a DPoP-bound token comes with a proof. A refusal is
 * `OAuthError('invalid_grant')` (a bound token without a proof `invalid_dpop_proof`); an outage or
 * fault keeps its own meaning.
 */
@Injectable()
export class SubjectTokenValidator {
  constructor(
    @Inject(AccessTokenValidator) private readonly accessTokens: Pick<AccessTokenValidator, 'validate'>,
    @Inject(ExternalSubjectTokenValidator) private readonly externalTokens: Pick<ExternalSubjectTokenValidator, 'validate'>,
    @Inject(UserStore) private readonly users: Pick<UserDirectory, 'findBySubjectId'>,
  ) {}

  async validate(token: string, context: SubjectTokenContext, { trustedIssuers = false }: SubjectTokenOptions = {}): Promise<SubjectToken> {
    if (typeof token !== 'string' || token.length === 0) throw refused('the subject token is missing');
    const { client } = context;
    const external = trustedIssuers ? await this.externalTokens.validate(token, client).catch(translated) : undefined;
    const validated: ValidatedAccessToken = external?.token ?? (await this.accessTokens.validate(token).catch(translated));
    // An external token's aud names the audience its issuer was registered with, checked already.
    if (!external && !context.resources.isAddressedTo(validated.audiences, client.clientId)) {
      throw refused('the subject token is not addressed to this client (aud)');
    }
    if (!validated.subject) throw refused('the subject token does not represent a user');
    // docs/dpop.md#bound-in-bound-out: a bound subject token is exchanged only for one bound to the exchanging client's key.
    if (validated.confirmation && !context.dpop) {
      throw new OAuthError('invalid_dpop_proof', 'the subject token is DPoP-bound: send a DPoP proof of your own key');
    }
    // RFC 8693 §4.4: a subject token naming who may act for the user admits no other actor.
    if (!mayActFor(validated.mayAct, client.clientId)) throw refused('the subject token does not allow this client to act for its subject (may_act)');
    // A user disabled since the token was issued delegates nothing (seen within CACHE_TTL_SECONDS, docs/users.md).
    const user = await this.users.findBySubjectId(validated.subject);
    if (!user?.enabled) throw refused('the user is unknown or disabled');
    return {
      subject: validated.subject,
      scopes: validated.scopes,
      expiresAt: validated.expiresAt,
      ...(validated.actor ? { act: validated.actor } : {}),
      ...(validated.authTime === undefined ? {} : { authTime: validated.authTime }),
      ...(validated.confirmation ? { cnf: validated.confirmation } : {}),
      ...(validated.acr === undefined ? {} : { acr: validated.acr }),
      ...(external ? { issuer: external.issuer } : {}),
    };
  }
}

function refused(description: string): OAuthError {
  return OAuthError.invalidGrant(description);
}

/** A rejected token is `invalid_grant` with its reason; an outage or fault passes unchanged. */
function translated(error: unknown): never {
  if (error instanceof OAuthError && error.code === 'invalid_token') throw refused(`the subject token is not valid: ${error.description ?? 'rejected'}`);
  throw error;
}
