import { parseJsonObject } from '../oauth/json-object';
import { OAuthError } from '../oauth/oauth-error';

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
