import type { JSONWebKeySet, JWK } from 'jose';
import { weakKeyProblem } from '../../../protocol/jwk-strength';

const MAX_KEYS = 10;

/**
 * The public signature keys of a client's JWK Set (RFC 7517 §5, RFC 7591 §2 `jwks`): 1 to 10 keys,
 * each with a `kty`, none with private or symmetric members, `use` absent or `sig`, no RSA key under
 * 2048 bits. Throws with the reason otherwise: a client that publishes a private key has leaked it.
 */
export function publicJwkSet(document: unknown): JSONWebKeySet {
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (typeof document !== 'object' || !Array.isArray(keys)) throw new Error('not a JWK Set: no "keys" array');
  if (keys.length === 0 || keys.length > MAX_KEYS) throw new Error(`a JWK Set must hold 1 to ${MAX_KEYS} keys`);
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || Array.isArray(key) || typeof (key as JWK).kty !== 'string') throw new Error('a key is not a JWK');
    const jwk = key as JWK;
    if ('d' in jwk || 'k' in jwk || 'p' in jwk) throw new Error('a key has private or symmetric members');
    if (jwk.use !== undefined && jwk.use !== 'sig') throw new Error('a key is not for signatures');
    const weak = weakKeyProblem(jwk);
    if (weak) throw new Error(weak);
  }
  return { keys: keys as JWK[] };
}
