import { Inject, Injectable } from '@nestjs/common';
import { type GrantContext, type GrantSuccess, type TokenExchangeHandler, type TokenExchangeRequest } from '../../index';
import { ACCESS_TOKEN_TYPE, ID_JAG_TOKEN_TYPE, ID_JAG_TYP, ID_TOKEN_TYPE, JWT_TOKEN_TYPE } from './cross-domain';
import { PartnerGrantIssuer } from './partner-grant.issuer';

const SUBJECT_TOKEN_TYPES = [ID_TOKEN_TYPE, ACCESS_TOKEN_TYPE] as const;

/** Token exchange for `requested_token_type=urn:ietf:params:oauth:token-type:id-jag`: an ID-JAG for a partner (docs/chaining.md#issuing-grants-for-partner-authorization-servers). */
@Injectable()
export class IdJagExchangeHandler implements TokenExchangeHandler {
  readonly subjectTokenType = SUBJECT_TOKEN_TYPES;
  readonly requestedTokenType = ID_JAG_TOKEN_TYPE;

  constructor(@Inject(PartnerGrantIssuer) private readonly grants: Pick<PartnerGrantIssuer, 'issue'>) {}

  exchange(request: TokenExchangeRequest, context: GrantContext): Promise<GrantSuccess> {
    return this.grants.issue({ typ: ID_JAG_TYP, issuedTokenType: ID_JAG_TOKEN_TYPE }, request, context);
  }
}

/** Token exchange for `requested_token_type=urn:ietf:params:oauth:token-type:jwt`: the identity-chaining JWT authorization grant (docs/chaining.md#issuing-grants-for-partner-authorization-servers). */
@Injectable()
export class IdentityChainingExchangeHandler implements TokenExchangeHandler {
  readonly subjectTokenType = SUBJECT_TOKEN_TYPES;
  readonly requestedTokenType = JWT_TOKEN_TYPE;

  constructor(@Inject(PartnerGrantIssuer) private readonly grants: Pick<PartnerGrantIssuer, 'issue'>) {}

  exchange(request: TokenExchangeRequest, context: GrantContext): Promise<GrantSuccess> {
    return this.grants.issue({ typ: 'JWT', issuedTokenType: JWT_TOKEN_TYPE }, request, context);
  }
}
