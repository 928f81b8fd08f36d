import { parseJsonObject } from '../../protocol/json-object';
import { OAuthError } from '../../protocol/oauth-error';

/** draft-ietf-oauth-transaction-tokens: the JWS `typ` of a transaction token. */
export const TXN_TOKEN_TYP = 'txntoken+jwt';
/** docs/transaction-tokens.md: `request_context` and `request_details` are JSON objects of at most 4 KiB. */
export const MAX_CONTEXT_BYTES = 4096;
/** How many requesting workloads `req_wl` may name: each replacement adds one. */
export const MAX_REQUESTING_WORKLOADS = 32;

/** The claims of a transaction token, as signed. */
export interface TransactionTokenClaims {
  readonly iss: string;
  readonly iat: number;
  readonly exp: number;
  /** The trust domain. */
  readonly aud: string;
  /** Unique per transaction; kept by every replacement. */
  readonly txn: string;
  readonly sub: string;
  readonly scope: string;
  /** The requesting workloads (client ids), comma-separated, the first requester first. */
  readonly req_wl: string;
  /** Transaction context, from `request_details`. */
  readonly tctx: Record<string, unknown>;
  /** Request context, from `request_context`, with `req_ip`, the first requester's address. */
  readonly rctx: Record<string, unknown>;
  /** The access token the transaction began with: its `exp`, and its `jti` when it is one of ours. */
  readonly subject_token?: { readonly exp: number; readonly jti?: string };
}

/**
 * The access token a transaction began with, carried by every replacement (docs/transaction-tokens.md#replacement):
 * no replacement outlives it, and none is issued once it is revoked.
 */
export interface TransactionSubjectToken {
  /** Epoch seconds. */
  readonly expiresAt: number;
  /** Its `jti`, for the deny list; absent for a trusted subject issuer's token. */
  readonly jwtId?: string;
}

/** A transaction token of ours that passed validation, as the service reads it. */
export interface ValidatedTransactionToken {
  readonly transactionId: string;
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly requestingWorkloads: readonly string[];
  readonly transactionContext: Record<string, unknown>;
  readonly requestContext: Record<string, unknown>;
  readonly expiresAt: number;
  /** Absent in transaction tokens issued before the claim existed. */
  readonly subjectToken?: TransactionSubjectToken;
}

/** `request_context` / `request_details`: a JSON object of at most 4 KiB, else `invalid_request`. */
export function readContextParameter(name: string, raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  if (Buffer.byteLength(raw, 'utf8') > MAX_CONTEXT_BYTES) throw OAuthError.invalidRequest(`${name} must be at most ${MAX_CONTEXT_BYTES} bytes`);
  const value = parseJsonObject(raw);
  if (!value) throw OAuthError.invalidRequest(`${name} must be a JSON object (no member named twice)`);
  return value;
}

/** `req_wl` with one more requesting workload; a client id with a comma could not be told apart. */
export function extendRequestingWorkloads(chain: readonly string[], clientId: string): string[] {
  if (clientId.includes(',')) throw OAuthError.invalidRequest('a client whose id contains a comma cannot be named in req_wl');
  if (chain.length >= MAX_REQUESTING_WORKLOADS) throw OAuthError.invalidRequest(`req_wl is limited to ${MAX_REQUESTING_WORKLOADS} requesting workloads`);
  return [...chain, clientId];
}

/**
 * Why a transaction's subject token no longer allows a replacement, or undefined when it does: it
 * expired, or it was revoked (`isRevoked` reads the access-token deny list).
 */
export function subjectTokenRefusal(subjectToken: TransactionSubjectToken, nowSeconds: number, isRevoked: (jwtId: string) => boolean): string | undefined {
  if (subjectToken.expiresAt <= nowSeconds) return 'the subject token of the transaction has expired';
  if (subjectToken.jwtId !== undefined && isRevoked(subjectToken.jwtId)) return 'the subject token of the transaction has been revoked';
  return undefined;
}
