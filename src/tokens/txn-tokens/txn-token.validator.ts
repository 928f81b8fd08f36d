import { Inject, Injectable } from '@nestjs/common';
import { OwnTokenVerifier, type OwnTokenKind } from '../access-token/own-token.verifier';
import type { ConfigType } from '../../platform/config/config-slice';
import { trustDomainConfig } from '../../platform/config/config.slices';
import { OAuthError } from '../../protocol/oauth-error';
import { TXN_TOKEN_TYP, type TransactionSubjectToken, type ValidatedTransactionToken } from './txn-token';

const TRANSACTION_TOKEN: OwnTokenKind = { types: new Set([TXN_TOKEN_TYP]), wrongType: 'the token is not a transaction token (typ)' };

/**
 * Validates a transaction token of ours presented for replacement: verified like every token of
 * ours (`OwnTokenVerifier`) as `typ` `txntoken+jwt`, then `aud` equal to the trust domain and
 * well-formed claims. Rejections are `invalid_token`; the caller translates.
 */
@Injectable()
export class TransactionTokenValidator {
  constructor(
    @Inject(OwnTokenVerifier) private readonly verifier: Pick<OwnTokenVerifier, 'verify'>,
    @Inject(trustDomainConfig.KEY) private readonly trust: ConfigType<typeof trustDomainConfig>,
  ) {}

  async validate(token: string): Promise<ValidatedTransactionToken> {
    const { claims } = await this.verifier.verify(token, TRANSACTION_TOKEN);
    return this.toValidatedToken(claims);
  }

  private toValidatedToken(claims: Record<string, unknown>): ValidatedTransactionToken {
    const { aud, txn, sub, scope, req_wl: requestingWorkloads, tctx, rctx, exp, subject_token: subjectTokenClaim } = claims;
    if (aud !== this.trust.trustDomain) throw rejected('the token is not for this trust domain (aud)');
    if (
      typeof txn !== 'string' ||
      typeof sub !== 'string' ||
      typeof scope !== 'string' ||
      typeof requestingWorkloads !== 'string' ||
      typeof exp !== 'number' ||
      !isObject(tctx) ||
      !isObject(rctx)
    ) {
      throw rejected('the token claims are malformed');
    }
    const subjectToken = subjectTokenClaim === undefined ? undefined : readSubjectTokenClaim(subjectTokenClaim);
    if (subjectTokenClaim !== undefined && !subjectToken) throw rejected('the token subject_token claim is malformed');
    return {
      transactionId: txn,
      subject: sub,
      scopes: scope.split(' ').filter((name) => name.length > 0),
      requestingWorkloads: requestingWorkloads.split(','),
      transactionContext: tctx,
      requestContext: rctx,
      expiresAt: exp,
      ...(subjectToken ? { subjectToken } : {}),
    };
  }
}

/** `subject_token`: `{exp, jti?}`, a number and a string. */
function readSubjectTokenClaim(value: unknown): TransactionSubjectToken | undefined {
  if (!isObject(value)) return undefined;
  const { exp, jti } = value;
  if (typeof exp !== 'number' || (jti !== undefined && typeof jti !== 'string')) return undefined;
  return { expiresAt: exp, ...(jti === undefined ? {} : { jwtId: jti }) };
}

function rejected(description: string): OAuthError {
  return OAuthError.invalidToken(description);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
