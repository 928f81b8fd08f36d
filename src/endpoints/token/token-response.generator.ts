import { Inject, Injectable } from '@nestjs/common';
import type { ActorClaim } from '../../tokens/access-token/access-token';
import { AccessTokenIssuer, type IssuedAccessToken } from '../../tokens/access-token/access-token.issuer';
import { AuditSink } from '../../platform/audit/audit-event';
import { AuthorizationCodeService } from '../../tokens/authorization/authorization-code.service';
import type { Client } from '../../identity/clients/client';
import type { DpopConfirmation } from '../../tokens/dpop/dpop-proof';
import type { CodeRedemption, ContinuedGrant, SelfIssuedResult } from '../../grants/grant-continuation';
import type { GrantSuccess } from '../../grants/grant-result';
import { IdTokenIssuer } from '../../tokens/id-token/id-token.issuer';
import { OPENID } from '../../protocol/scope';
import type { RefreshTokenFamily } from '../../tokens/refresh-tokens/refresh-token';
import { RefreshTokenService } from '../../tokens/refresh-tokens/refresh-token.service';
import { toSelfIssuedTokenResponse, toTokenResponse, type TokenResponse } from './token-response';

/** A grant's result that issues something (every kind but an error), a success's scopes resolved. */
export type IssuingResult = (GrantSuccess & { readonly scopes: readonly string[] }) | ContinuedGrant;

/** What the grant's validator declared it may be used for (docs/grants.md). */
export interface GrantPolicy {
  /** An ID token when `openid` is granted. */
  readonly signsIn: boolean;
  /** A new refresh-token family when `offline_access` is granted to a user. */
  readonly refreshTokens: boolean;
}

/** The access token to issue, whatever kind of result it came from. */
interface AccessTokenGrant {
  readonly subject?: string;
  readonly scopes: readonly string[];
  /** RFC 8707: the `aud` when resources were requested or authorized. */
  readonly audience?: readonly string[];
  /** What a new refresh-token family keeps when the access token carries less (RFC 8707 §2.2). */
  readonly authorized?: { readonly scopes: readonly string[]; readonly resources: readonly string[] };
  readonly authTime: number;
  readonly authenticationMethods: readonly string[];
  /** A delegated token's: its subject token's `acr` (docs/passkeys.md). */
  readonly acr?: string;
  readonly actor?: ActorClaim;
  readonly expiresAtMost?: number;
  readonly claims?: Readonly<Record<string, unknown>>;
  readonly responseParameters?: Readonly<Record<string, unknown>>;
  readonly subjectIssuer?: string;
  readonly issuedTokenType?: string;
  /** A sign-in (and its session, for a browser's): an ID token comes with the access token when `openid` is granted (OpenID Connect Core §3.1.3.3). */
  readonly signIn?: { readonly sessionId?: string; readonly nonce?: string };
  /** Whether a new refresh-token family may begin (the grant's `refreshTokens`). */
  readonly refreshable: boolean;
}

/** What else the access token is issued with. */
interface Continuation {
  /** The family a rotated refresh token's successor joins (RFC 6749 §6). */
  readonly family?: RefreshTokenFamily;
  /** The code the tokens are bound to (RFC 6749 §4.1.2). */
  readonly code?: CodeRedemption['code'];
}

/** RFC 9449 §5: the key of the request's DPoP proof, which the access token (and a public client's refresh token) is bound to. */
export type SenderBinding = DpopConfirmation | undefined;

/**
 * Turns any grant's result into the token response (RFC 6749 §5.1, RFC 8693 §2.2.1): the access
 * token, the refresh token and ID token where the grant carries them, the binding to the code it
 * came from, and the audit event. The pipeline never needs to know which grant ran.
 */
@Injectable()
export class TokenResponseGenerator {
  constructor(
    @Inject(AccessTokenIssuer) private readonly issuer: Pick<AccessTokenIssuer, 'issue'>,
    @Inject(RefreshTokenService) private readonly refreshTokens: Pick<RefreshTokenService, 'issueFor' | 'revokeIssuedFromCode'>,
    @Inject(IdTokenIssuer) private readonly idTokens: Pick<IdTokenIssuer, 'issue'>,
    @Inject(AuthorizationCodeService) private readonly codes: Pick<AuthorizationCodeService, 'recordIssued'>,
    private readonly audit: AuditSink,
  ) {}

  generate(
    result: IssuingResult,
    grantType: string,
    client: Client,
    binding?: SenderBinding,
    policy: GrantPolicy = { signsIn: false, refreshTokens: false },
  ): Promise<TokenResponse> {
    const now = Math.floor(Date.now() / 1000);
    const signIn = <T>(session: T): T | undefined => (policy.signsIn ? session : undefined);
    switch (result.kind) {
      case 'self_issued':
        return Promise.resolve(this.selfIssued(result, grantType, client));
      case 'code_redemption': {
        const { code } = result;
        const { subject, authTime, authenticationMethods } = code;
        const grant = {
          subject,
          scopes: result.scopes ?? code.scopes,
          audience: result.audience ?? code.resources,
          authorized: { scopes: code.scopes, resources: code.resources },
          authTime,
          authenticationMethods,
          signIn: signIn({ sessionId: code.sessionId, nonce: code.nonce }),
          refreshable: policy.refreshTokens,
        };
        return this.accessToken(grant, grantType, client, { code }, binding);
      }
      case 'device_code_redemption': {
        const { subject, scopes, authTime, authenticationMethods, sessionId } = result;
        const grant = { subject, scopes, authTime, authenticationMethods, signIn: signIn({ sessionId }), refreshable: policy.refreshTokens };
        return this.accessToken(grant, grantType, client, {}, binding);
      }
      case 'refresh_rotation': {
        const { presented: token, scopes } = result;
        const grant = {
          subject: token.subject,
          scopes,
          // docs/tokens.md#refresh-tokens: the audience and claims the grant first issued, never wider, never fewer.
          audience: result.audience ?? token.audience ?? token.resources,
          claims: token.claims,
          authTime: token.authTime,
          authenticationMethods: token.authenticationMethods.length > 0 ? token.authenticationMethods : [grantType],
          // OpenID Connect Core §12.2: a refresh of a browser sign-in gets a new ID token, with the same sid.
          signIn: token.sessionId === undefined ? undefined : signIn({ sessionId: token.sessionId }),
          refreshable: true,
        };
        const family = {
          id: token.familyId,
          scopes: token.scopes,
          resources: token.resources,
          claims: token.claims,
          audience: token.audience,
          expiresAt: token.expiresAt,
          rotatedFrom: token.tokenHash,
          confirmation: token.confirmation,
        };
        return this.accessToken(grant, grantType, client, { family }, binding);
      }
      default: {
        const { delegation } = result;
        // One object literal of a fixed shape: spreads cost microseconds on this path (bench/README.md).
        const grant: AccessTokenGrant = {
          subject: result.subject,
          scopes: result.scopes,
          audience: result.audience,
          authorized: undefined,
          authTime: delegation?.authTime ?? (policy.signsIn ? result.authTime : undefined) ?? now,
          authenticationMethods: result.authenticationMethods ?? [grantType],
          acr: delegation?.acr,
          actor: delegation?.actor,
          expiresAtMost: delegation?.expiresAtMost,
          claims: result.claims,
          responseParameters: result.responseParameters,
          subjectIssuer: delegation?.subjectIssuer,
          issuedTokenType: result.issuedTokenType ?? delegation?.issuedTokenType,
          signIn: signIn({}),
          refreshable: policy.refreshTokens,
        };
        return this.accessToken(grant, grantType, client, {}, binding);
      }
    }
  }

  private async accessToken(
    grant: AccessTokenGrant,
    grantType: string,
    client: Client,
    { family, code }: Continuation,
    binding: SenderBinding,
  ): Promise<TokenResponse> {
    const accessToken = await this.issuer.issue({
      clientId: client.clientId,
      lifetimeSeconds: client.accessTokenLifetimeSeconds,
      scopes: grant.scopes,
      audience: grant.audience,
      selfRegistered: client.selfRegistered,
      subject: grant.subject,
      authTime: grant.authTime,
      authenticationMethods: grant.authenticationMethods,
      acr: grant.acr,
      actor: grant.actor,
      // RFC 8693 §4.4: the client's policy on who may act for its users.
      mayAct: client.mayActClientId !== undefined && grant.subject !== undefined ? { client_id: client.mayActClientId } : undefined,
      extraClaims: grant.claims,
      expiresAtMost: grant.expiresAtMost,
      confirmation: binding,
    });
    // Object.assign, not a spread followed by more members (a slow path on Node 20, bench/README.md).
    const issued = Object.assign({}, grant, { idToken: grant.signIn, confirmation: binding });
    const refreshToken = await this.refreshTokens.issueFor(issued, client, accessToken, family);
    if (code) await this.bindToCode(code, accessToken);
    const idToken =
      grant.signIn && grant.subject !== undefined && grant.scopes.includes(OPENID) ? await this.idToken(grant.subject, grant, client, accessToken) : undefined;
    this.audit.emit({
      name: 'token.issued',
      grantType,
      clientId: client.clientId,
      subject: grant.subject,
      scopes: grant.scopes,
      actors: actorChain(grant.actor),
      jwtId: accessToken.jwtId,
      subjectIssuer: grant.subjectIssuer,
    });
    return toTokenResponse(accessToken, grant.responseParameters, { refreshToken, idToken, issuedTokenType: grant.issuedTokenType });
  }

  private idToken(subject: string, grant: AccessTokenGrant, client: Client, accessToken: IssuedAccessToken): Promise<string> {
    return this.idTokens.issue({
      clientId: client.clientId,
      subject,
      authTime: grant.authTime,
      authenticationMethods: grant.authenticationMethods,
      sessionId: grant.signIn?.sessionId,
      nonce: grant.signIn?.nonce,
      accessToken: accessToken.token,
    });
  }

  /** Records what the code issued; if the code came back meanwhile, revokes it at once. */
  private async bindToCode(code: CodeRedemption['code'], accessToken: IssuedAccessToken): Promise<void> {
    const issued = { jwtId: accessToken.jwtId, expiresAt: new Date(Date.now() + accessToken.expiresIn * 1000) };
    if (!(await this.codes.recordIssued(code, issued))) await this.refreshTokens.revokeIssuedFromCode(issued);
  }

  private selfIssued(result: SelfIssuedResult, grantType: string, client: Client): TokenResponse {
    this.audit.emit({
      name: 'token.issued',
      grantType,
      clientId: client.clientId,
      subject: result.subject,
      scopes: result.token.scopes,
      tokenType: result.issuedTokenType,
      transactionId: result.token.transactionId,
      subjectIssuer: result.subjectIssuer,
    });
    return toSelfIssuedTokenResponse(result.token, result.issuedTokenType);
  }
}

/** The `act` chain as client ids, the latest actor first. */
function actorChain(actor: ActorClaim | undefined): string[] | undefined {
  const chain: string[] = [];
  for (let current = actor; current; current = current.act) chain.push(current.client_id);
  return chain.length > 0 ? chain : undefined;
}
