import { Inject, Injectable } from '@nestjs/common';
import { mayActFor } from '../tokens/access-token/access-token';
import { AccessTokenDenyList } from '../tokens/access-token/access-token-deny-list';
import { AccessTokenValidator } from '../tokens/access-token/access-token.validator';
import type { ConfigType } from '../platform/config/config-slice';
import { trustDomainConfig } from '../platform/config/config.slices';
import { OAuthError } from '../protocol/oauth-error';
import { OFFLINE_ACCESS } from '../protocol/scope';
import { ExternalSubjectTokenValidator } from '../tokens/subject-tokens/external-subject-token.validator';
import { extendRequestingWorkloads, readContextParameter, subjectTokenRefusal, type TransactionSubjectToken } from '../tokens/txn-tokens/txn-token';
import { TransactionTokenIssuer } from '../tokens/txn-tokens/txn-token.issuer';
import { TransactionTokenValidator } from '../tokens/txn-tokens/txn-token.validator';
import { carriedScopes } from './grant-scopes';
import { continueWith } from './grant-continuation';
import type { GrantSuccess } from './grant-result';
import type { GrantContext } from './grant-validator';
import type { TokenExchangeHandler } from './token-exchange-handler';
import { ACCESS_TOKEN_TYPE, JWT_TOKEN_TYPE, TXN_TOKEN_TYPE, type TokenExchangeRequest } from './token-exchange-request';

/** What a transaction token is minted from: a subject token, or the transaction token it replaces. */
interface TransactionSubject {
  readonly transactionId?: string;
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly requestingWorkloads: readonly string[];
  readonly transactionContext: Record<string, unknown>;
  readonly requestContext: Record<string, unknown>;
  readonly subjectToken: TransactionSubjectToken;
  /** The trusted external issuer of the subject token, for the audit log. */
  readonly subjectIssuer?: string;
}

/**
 * Token exchange for `requested_token_type=urn:ietf:params:oauth:token-type:txn_token`
 * (draft-ietf-oauth-transaction-tokens, docs/transaction-tokens.md). Only clients allowed to may
 * ask; the audience is the trust domain; the subject token need not name the requester in its
 * `aud` (a gateway sits in front of the APIs). A transaction token as subject token is replaced:
 * same `txn`, `sub` and `aud`, no wider scope, one more requesting workload, a fresh `exp` no later
 * than the access token the transaction began with, which must still be unexpired and unrevoked.
 */
@Injectable()
export class TransactionTokenExchangeHandler implements TokenExchangeHandler {
  readonly subjectTokenType = [ACCESS_TOKEN_TYPE, JWT_TOKEN_TYPE, TXN_TOKEN_TYPE];
  readonly requestedTokenType = TXN_TOKEN_TYPE;

  constructor(
    @Inject(AccessTokenValidator) private readonly accessTokens: Pick<AccessTokenValidator, 'validate'>,
    @Inject(TransactionTokenValidator) private readonly transactionTokens: Pick<TransactionTokenValidator, 'validate'>,
    @Inject(TransactionTokenIssuer) private readonly issuer: Pick<TransactionTokenIssuer, 'issue'>,
    @Inject(trustDomainConfig.KEY) private readonly config: ConfigType<typeof trustDomainConfig>,
    @Inject(ExternalSubjectTokenValidator) private readonly externalTokens: Pick<ExternalSubjectTokenValidator, 'validate'>,
    @Inject(AccessTokenDenyList) private readonly denyList: Pick<AccessTokenDenyList, 'isRevoked'>,
  ) {}

  async exchange(request: TokenExchangeRequest, context: GrantContext): Promise<GrantSuccess> {
    if (context.client.transactionTokens !== true) throw OAuthError.invalidRequest('the client may not obtain transaction tokens');
    const outside = request.targets.find((target) => target !== this.config.trustDomain);
    if (outside !== undefined) throw OAuthError.invalidTarget(`the audience of a transaction token is the trust domain, not ${outside.slice(0, 200)}`);
    const transactionContext = readContextParameter('request_details', request.requestDetails);
    const requestContext = readContextParameter('request_context', request.requestContext);
    const subject =
      request.subjectTokenType === TXN_TOKEN_TYPE
        ? await this.replaced(request.subjectToken)
        : await this.fromAccessToken(request.subjectToken, context, transactionContext ?? {}, { ...requestContext, req_ip: context.clientAddress });
    const scopes = transactionScopes(subject, context);
    const { subjectIssuer, ...claims } = subject;
    const issued = await this.issuer.issue({
      ...claims,
      scopes,
      requestingWorkloads: extendRequestingWorkloads(subject.requestingWorkloads, context.client.clientId),
    });
    const continuation = continueWith({
      kind: 'self_issued',
      subject: subject.subject,
      issuedTokenType: TXN_TOKEN_TYPE,
      token: { token: issued.token, tokenType: 'N_A', expiresIn: issued.expiresIn, scopes, transactionId: issued.transactionId },
      ...(subjectIssuer ? { subjectIssuer } : {}),
    });
    return { subject: subject.subject, scopes, continuation };
  }

  private async fromAccessToken(
    token: string,
    context: GrantContext,
    transactionContext: Record<string, unknown>,
    requestContext: Record<string, unknown>,
  ): Promise<TransactionSubject> {
    // A subject token of a trusted subject issuer the client trusts, or one of ours (docs/delegation.md).
    const external = await this.externalTokens.validate(token, context.client).catch(invalidSubjectToken);
    const subjectToken = external?.token ?? (await this.accessTokens.validate(token).catch(invalidSubjectToken));
    if (subjectToken.subject === undefined) throw OAuthError.invalidRequest('the subject token does not represent a user');
    // RFC 8693 §4.4 holds for every exchange, this one included.
    if (!mayActFor(subjectToken.mayAct, context.client.clientId)) {
      throw OAuthError.invalidRequest('the subject token does not allow this client to act for its subject (may_act)');
    }
    return {
      subject: subjectToken.subject,
      scopes: subjectToken.scopes,
      requestingWorkloads: [],
      transactionContext,
      requestContext,
      // Only our own tokens' jti can be on the deny list.
      subjectToken: { expiresAt: subjectToken.expiresAt, ...(external ? {} : { jwtId: subjectToken.jwtId }) },
      ...(external ? { subjectIssuer: external.issuer } : {}),
    };
  }

  /**
   * A replacement keeps what the transaction token says; the request's context cannot change it.
   * Its subject token must still hold (docs/transaction-tokens.md#replacement); its user is checked
   * by the token endpoint like every grant's.
   */
  private async replaced(token: string): Promise<TransactionSubject> {
    const replaced = await this.transactionTokens.validate(token).catch(invalidSubjectToken);
    const { transactionId, subject, scopes, requestingWorkloads, transactionContext, requestContext } = replaced;
    // A token issued before `subject_token` was carried: its own expiry is the limit.
    const subjectToken = replaced.subjectToken ?? { expiresAt: replaced.expiresAt };
    const refusal = subjectTokenRefusal(subjectToken, Math.floor(Date.now() / 1000), (jwtId) => this.denyList.isRevoked(jwtId));
    if (refusal !== undefined) throw OAuthError.invalidRequest(refusal);
    return { transactionId, subject, scopes, requestingWorkloads, transactionContext, requestContext, subjectToken };
  }
}

function invalidSubjectToken(error: unknown): never {
  if (error instanceof OAuthError) throw OAuthError.invalidRequest(`subject_token is not valid: ${error.description}`);
  throw error;
}

/** Within the subject token's scope: a wider request is `invalid_scope`; a default leaves the rest out. */
function transactionScopes(subject: TransactionSubject, context: GrantContext): string[] {
  const scopes = carriedScopes(context.scopes, (scope) => {
    if (scope === OFFLINE_ACCESS) return 'transaction tokens never come with refresh tokens';
    return subject.scopes.includes(scope) ? undefined : `scope ${scope} is wider than the subject token's`;
  });
  if (scopes.length === 0) throw OAuthError.invalidScope("none of the requested scopes is within the subject token's");
  return scopes;
}
