import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { MAX_TOKEN_LENGTH } from '../access-token/access-token.validator';
import { verifyJws } from '../access-token/jws';
import type { ConfigType } from '../config/config-slice';
import { issuerConfig, trustDomainConfig } from '../config/config.slices';
import { SigningKeyStore } from '../keys/signing-key.store';
import { parseJsonObject } from '../oauth/json-object';
import { OAuthError } from '../oauth/oauth-error';
import { TXN_TOKEN_TYP, type TransactionSubjectToken, type ValidatedTransactionToken } from './txn-token';

// Header parameters that would let the token choose its own key, or demand extensions we do not implement.
const FORBIDDEN_HEADERS = ['jwk', 'jku', 'x5u', 'x5c', 'crit', 'zip', 'enc'];

/**
 * Validates a transaction token of ours presented for replacement: `typ` `txntoken+jwt`, a published
 * key and its algorithm, `iss`, `exp`, `aud` equal to the trust domain, well-formed claims.
 * Rejections are `invalid_token`; the caller translates.
 */
@Injectable()
export class TransactionTokenValidator {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: SigningKeyStore,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
    @Inject(trustDomainConfig.KEY) private readonly trust: ConfigType<typeof trustDomainConfig>,
  ) {}

  async validate(token: string): Promise<ValidatedTransactionToken> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw rejected('the token is empty or too long');
    const segments = token.split('.');
    if (segments.length !== 3) throw rejected('the token is not a compact JWS');
    const header = decodeJson(segments[0]);
    if (!header) throw rejected('the token header is not a JSON object with unique member names');
    if (typeof header.typ !== 'string' || header.typ.toLowerCase() !== TXN_TOKEN_TYP) throw rejected('the token is not a transaction token (typ)');
    if (FORBIDDEN_HEADERS.some((name) => name in header)) throw rejected('the token header has parameters that are not accepted');
    const key = typeof header.kid === 'string' ? this.keys.verificationKey(header.kid) : undefined;
    if (!key) throw rejected('the token was not signed with a published key');
    if (header.alg !== key.algorithm) throw rejected('the token algorithm is not accepted');
    if (!decodeJson(segments[1])) throw rejected('the token payload is not a JSON object with unique member names');
    let payload: unknown;
    try {
      payload = await verifyJws(this.jwt, token, key, this.config.issuer);
    } catch {
      throw rejected('the token signature, issuer or lifetime is invalid');
    }
    return this.toValidatedToken(payload as Record<string, unknown>);
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

function decodeJson(segment: string): Record<string, unknown> | undefined {
  return parseJsonObject(Buffer.from(segment, 'base64url').toString('utf8'));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
