import { createHash } from 'node:crypto';

/**
 * RFC 9449 §4.2: the asymmetric algorithms a proof may be signed with (never `none`, never HMAC).
 * An Ed25519 key under both names: `EdDSA` (RFC 8037) and the fully specified `Ed25519` (RFC 9864).
 */
export const DPOP_SIGNING_ALGORITHMS: readonly string[] = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'Ed25519'];

/** What a proof must match: the request it came with. */
export interface DpopProofRequest {
  /** The `DPoP` header as sent; undefined when there was none. */
  readonly proof: string | undefined;
  /** The HTTP method (`htm`). */
  readonly method: string;
  /** The endpoint's URL under the issuer (`htu`), without query or fragment. */
  readonly url: string;
  /** At a resource: the access token the proof must name (`ath`, RFC 9449 §4.3 item 12). */
  readonly accessToken?: string;
}

/** A proof that passed every check: the key it was signed with, by its RFC 7638 thumbprint. */
export interface VerifiedDpopProof {
  readonly jkt: string;
}

/** RFC 7800 §3.1 confirmation of a DPoP-bound token (RFC 9449 §6.1). */
export interface DpopConfirmation {
  readonly jkt: string;
}

/** RFC 9449 §4.2 `ath`: base64url SHA-256 of the access token. */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest('base64url');
}

/**
 * RFC 9449 §4.3 item 9 (RFC 3986 §6.2.2, §6.2.3): an `htu` compared without query and fragment,
 * scheme and host in lower case, the default port dropped, dot segments resolved; undefined when it
 * is no http(s) URL.
 */
export function normalizeHtu(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return `${url.protocol}//${url.host}${url.pathname}`;
}
