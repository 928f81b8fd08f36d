import type { JSONWebKeySet, JWK } from 'jose';
import { weakKeyProblem } from '../../protocol/jwk-strength';

export const MAX_KEYS_PER_SET = 100;

/** A fetched or stored key set, reduced to the keys that verify JWTs, and how soon to fetch it again. */
export interface UsableJwkSet {
  readonly jwks: JSONWebKeySet;
  /** SPIFFE bundles say how often to refresh (`spiffe_refresh_hint`, seconds). */
  readonly refreshHintSeconds?: number;
}

/**
 * Keeps the public signature keys of a JWK Set (RFC 7517 §5). A SPIFFE trust bundle (SPIFFE
 * Trust Domain and Bundle §4) marks JWT-SVID keys `use: "jwt-svid"` and X.509 roots `x509-svid`:
 * only the former verify JWTs, and they are handed to `jose` as `use: "sig"`. Keys carrying private
 * members are dropped: a set that publishes them is a misconfiguration, not something to trust; so
 * are RSA keys under 2048 bits, which no signature may be verified with (RFC 7518 §3.3).
 * Throws when the document is not a JWK Set.
 */
export function usableJwkSet(document: unknown, spiffe: boolean): UsableJwkSet {
  if (typeof document !== 'object' || document === null || !Array.isArray((document as { keys?: unknown }).keys)) {
    throw new Error('not a JWK Set: no "keys" array');
  }
  const { keys, spiffe_refresh_hint: hint } = document as { keys: unknown[]; spiffe_refresh_hint?: unknown };
  if (keys.length > MAX_KEYS_PER_SET) throw new Error(`the JWK Set has more than ${MAX_KEYS_PER_SET} keys`);
  const usable: JWK[] = [];
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || Array.isArray(key)) continue;
    const jwk = key as JWK;
    if (typeof jwk.kty !== 'string' || 'd' in jwk || 'k' in jwk || weakKeyProblem(jwk)) continue;
    const use = jwk.use;
    if (use === 'jwt-svid' && spiffe) usable.push({ ...jwk, use: 'sig' });
    else if (use === undefined || use === 'sig') usable.push(jwk);
  }
  const refreshHintSeconds = spiffe && typeof hint === 'number' && Number.isInteger(hint) && hint > 0 ? hint : undefined;
  return { jwks: { keys: usable }, refreshHintSeconds };
}
