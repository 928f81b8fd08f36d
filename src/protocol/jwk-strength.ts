/** RFC 7518 §3.3 and §3.5: RS256 and PS256 keys "of size 2048 bits or larger MUST be used". */
export const MIN_RSA_BITS = 2048;

/**
 * Why a public JWK is too weak to verify a client's or an issuer's signatures, or undefined: an RSA
 * key whose modulus `n` has fewer than MIN_RSA_BITS bits. Other key types are fixed in size by their
 * curve, which verification checks.
 */
export function weakKeyProblem(jwk: { readonly kty?: unknown; readonly n?: unknown }): string | undefined {
  if (jwk.kty !== 'RSA') return undefined;
  const bits = typeof jwk.n === 'string' ? modulusBits(Buffer.from(jwk.n, 'base64url')) : 0;
  return bits < MIN_RSA_BITS ? `an RSA key must be at least ${MIN_RSA_BITS} bits (RFC 7518 §3.3), not ${bits}` : undefined;
}

/** The bit length of a big-endian unsigned integer, leading zero octets ignored. */
function modulusBits(octets: Buffer): number {
  let first = 0;
  while (first < octets.length && octets[first] === 0) first++;
  if (first === octets.length) return 0;
  return (octets.length - first - 1) * 8 + (32 - Math.clz32(octets[first]));
}
