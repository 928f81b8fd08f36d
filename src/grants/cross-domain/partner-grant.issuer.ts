import { Inject, Injectable } from '@nestjs/common';
import {
  IdTokenValidator,
  OAuthError,
  PartnerAuthorizationServers,
  SubjectTokenValidator,
  TokenSigner,
  type GrantContext,
  type GrantSuccess,
  type TokenExchangeRequest,
} from '../../index';
import { ID_TOKEN_TYPE } from './cross-domain';
import { partnerAudience, partnerGrantTarget } from './partner-grant-request';

/** The longest a grant for a partner lives (docs/chaining.md#issuing-grants-for-partner-authorization-servers). */
export const MAX_GRANT_LIFETIME_SECONDS = 300;

/** What the two kinds of grant differ in. */
export interface PartnerGrantKind {
  readonly typ: string;
  readonly issuedTokenType: string;
}

/** The user a subject token speaks for, as a grant for a partner needs it. */
interface GrantSubject {
  readonly subject: string;
  readonly authTime?: number;
  readonly expiresAt: number;
}

/**
 * The issuing half of cross-domain access (docs/chaining.md#issuing-grants-for-partner-authorization-servers): token exchange turns our ID
 * token issued to the requesting client, or our access token addressed to it, into a JWT
 * authorization grant for a partner authorization server — signed with our keys, `aud` the
 * partner's issuer as sole value, `client_id` the requesting client's id there, `scope` and
 * `resource` when requested, at most 5 minutes and never beyond the subject token.
 */
@Injectable()
export class PartnerGrantIssuer {
  constructor(
    @Inject(PartnerAuthorizationServers) private readonly partners: Pick<PartnerAuthorizationServers, 'find' | 'knowClient'>,
    @Inject(IdTokenValidator) private readonly idTokens: Pick<IdTokenValidator, 'validate'>,
    @Inject(SubjectTokenValidator) private readonly accessTokens: Pick<SubjectTokenValidator, 'validate'>,
    @Inject(TokenSigner) private readonly signer: Pick<TokenSigner, 'sign'>,
  ) {}

  async issue(kind: PartnerGrantKind, request: TokenExchangeRequest, context: GrantContext): Promise<GrantSuccess> {
    const { client } = context;
    if (!(await this.partners.knowClient(client.clientId)))
      throw OAuthError.unauthorizedClient('the client may not request grants for partner authorization servers');
    const audience = partnerAudience(context.rawParameters);
    const target = partnerGrantTarget(await this.partners.find(audience), audience, client.clientId, context.rawParameters);
    const subject = await this.subjectOf(request, context);
    const now = Math.floor(context.receivedAt / 1000);
    const lifetimeSeconds = Math.min(MAX_GRANT_LIFETIME_SECONDS, subject.expiresAt - now);
    if (lifetimeSeconds < 1) throw OAuthError.invalidRequest('subject_token is not valid: it has expired');
    // The partner decides what the scope means there: passed on as asked, never defaulted.
    const scopes = context.scopes.explicit ? context.scopes.names : [];
    const signed = await this.signer.sign({
      typ: kind.typ,
      lifetimeSeconds,
      subject: subject.subject,
      scopes,
      issuedTokenType: kind.issuedTokenType,
      claims: {
        sub: subject.subject,
        aud: target.partner.issuer,
        client_id: target.clientId,
        ...(subject.authTime === undefined ? {} : { auth_time: subject.authTime }),
        ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
        ...(target.resources.length === 0 ? {} : { resource: target.resources.length === 1 ? target.resources[0] : target.resources }),
      },
    });
    return { subject: subject.subject, scopes, continuation: signed.continuation };
  }

  /** RFC 8693 §2.2.2: a subject token that cannot be accepted is `invalid_request`. */
  private async subjectOf(request: TokenExchangeRequest, context: GrantContext): Promise<GrantSubject> {
    try {
      if (request.subjectTokenType === ID_TOKEN_TYPE) return await this.idTokens.validate(request.subjectToken, context.client.clientId);
      const token = await this.accessTokens.validate(request.subjectToken, context);
      if (token.issuer !== undefined) throw OAuthError.invalidGrant('only tokens of this issuer are exchanged for grants to a partner');
      return token;
    } catch (error) {
      if (error instanceof OAuthError && error.code === 'invalid_grant')
        throw OAuthError.invalidRequest(`subject_token is not valid: ${error.description ?? 'rejected'}`);
      throw error;
    }
  }
}
