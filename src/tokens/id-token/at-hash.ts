import { createHash } from 'node:crypto';

/**
 * OpenID Connect Core §3.1.3.6: the left half of the hash of the access token's ASCII octets, with
 * the hash of the ID token's `alg` (SHA-256 for RS256, PS256, ES256; SHA-512 for EdDSA with Ed25519,
 * as OpenID Connect implementations agree), base64url.
 */
export function accessTokenHash(accessToken: string, algorithm: string): string {
  const digest = createHash(algorithm === 'EdDSA' ? 'sha512' : 'sha256')
    .update(accessToken, 'ascii')
    .digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
