import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { isCanonicalCompactJws } from '../../protocol/compact-jws';
import { TXN_TOKEN_TYP, type TransactionTokenClaims } from './txn-token';

/** draft-ietf-oauth-transaction-tokens: the HTTP header a transaction token travels in. */
export const TXN_TOKEN_HEADER = 'txn-token';

export interface TransactionTokenVerifierOptions {
  /** Tollgate's `ISSUER`. */
  readonly issuer: string;
  /** Tollgate's `TRUST_DOMAIN` (the `aud` of every transaction token); the issuer by default. */
  readonly trustDomain?: string;
  /** The published JWK Set; `<issuer>/.well-known/openid-configuration/jwks` by default. */
  readonly jwksUri?: string;
  /** Keys to verify with instead of fetching `jwksUri` (e.g. a local JWK Set). */
  readonly keys?: JWTVerifyGetKey;
  /** Seconds `exp` may be off; 60 by default. */
  readonly clockToleranceSeconds?: number;
}

/** A transaction token that did not verify; `message` says why (it never contains the token). */
export class TransactionTokenError extends Error {}

export type TransactionTokenVerifier = (token: string) => Promise<TransactionTokenClaims>;

const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

/**
 * For APIs receiving transaction tokens (docs/transaction-tokens.md): a function that verifies one
 * with the published JWK Set (fetched once and cached by `jose`, refetched on an unknown `kid`) —
 * `typ` `txntoken+jwt`, canonical base64url, signature, `iss`, `aud` = the trust domain, `exp` — and returns its claims.
 */
export function createTransactionTokenVerifier(options: TransactionTokenVerifierOptions): TransactionTokenVerifier {
  const keys = options.keys ?? createRemoteJWKSet(new URL(options.jwksUri ?? `${options.issuer}/.well-known/openid-configuration/jwks`));
  const expected = {
    typ: TXN_TOKEN_TYP,
    issuer: options.issuer,
    audience: options.trustDomain ?? options.issuer,
    algorithms: ALGORITHMS,
    clockTolerance: options.clockToleranceSeconds ?? 60,
    requiredClaims: ['iat', 'exp', 'txn', 'sub'],
  };
  return async (token) => {
    // RFC 7515 §2: one spelling per token; jose would accept a signature respelled in its spare bits.
    if (!isCanonicalCompactJws(token)) throw new TransactionTokenError('the transaction token is not a compact JWS in canonical base64url');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, keys, expected));
    } catch (error) {
      throw new TransactionTokenError(`the transaction token is not valid: ${(error as Error).message}`);
    }
    if (!isTransactionTokenClaims(payload)) throw new TransactionTokenError('the transaction token claims are malformed');
    return payload;
  };
}

function isTransactionTokenClaims(payload: Record<string, unknown>): payload is Record<string, unknown> & TransactionTokenClaims {
  const { txn, sub, scope, req_wl: requestingWorkloads, tctx, rctx } = payload;
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  return (
    typeof txn === 'string' &&
    typeof sub === 'string' &&
    typeof scope === 'string' &&
    typeof requestingWorkloads === 'string' &&
    isObject(tctx) &&
    isObject(rctx)
  );
}
