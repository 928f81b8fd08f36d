import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomBytes } from 'node:crypto';
import { signJws } from '../access-token/jws';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig, tokenLifetimes, trustDomainConfig } from '../../platform/config/config.slices';
import { SigningKeyStore } from '../keys/signing-key.store';
import { formatScope } from '../../protocol/scope';
import { TXN_TOKEN_TYP, type TransactionSubjectToken, type TransactionTokenClaims } from './txn-token';

export interface TransactionTokenRequest {
  /** Absent for a new transaction: a fresh `txn` is drawn. */
  readonly transactionId?: string;
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly requestingWorkloads: readonly string[];
  readonly transactionContext: Record<string, unknown>;
  readonly requestContext: Record<string, unknown>;
  /** The token must not outlive it; carried as `subject_token` for replacements. */
  readonly subjectToken: TransactionSubjectToken;
}

export interface IssuedTransactionToken {
  readonly token: string;
  readonly transactionId: string;
  readonly expiresIn: number;
}

/** Signs transaction tokens with the service's signing keys (draft-ietf-oauth-transaction-tokens). */
@Injectable()
export class TransactionTokenIssuer {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: SigningKeyStore,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
    @Inject(trustDomainConfig.KEY) private readonly trust: ConfigType<typeof trustDomainConfig>,
    @Inject(tokenLifetimes.KEY) private readonly lifetimes: ConfigType<typeof tokenLifetimes>,
  ) {}

  async issue(request: TransactionTokenRequest): Promise<IssuedTransactionToken> {
    const now = Math.floor(Date.now() / 1000);
    const { subjectToken } = request;
    const exp = Math.min(now + this.lifetimes.transactionTokenSeconds, subjectToken.expiresAt);
    const transactionId = request.transactionId ?? randomBytes(16).toString('base64url');
    const claims: TransactionTokenClaims = {
      iss: this.config.issuer,
      iat: now,
      exp,
      aud: this.trust.trustDomain,
      txn: transactionId,
      sub: request.subject,
      scope: formatScope(request.scopes),
      req_wl: request.requestingWorkloads.join(','),
      tctx: request.transactionContext,
      rctx: request.requestContext,
      subject_token: { exp: subjectToken.expiresAt, ...(subjectToken.jwtId === undefined ? {} : { jti: subjectToken.jwtId }) },
    };
    const token = await signJws(this.jwt, { ...claims }, this.keys.signingKey(), TXN_TOKEN_TYP);
    return { token, transactionId, expiresIn: Math.max(exp - now, 0) };
  }
}
