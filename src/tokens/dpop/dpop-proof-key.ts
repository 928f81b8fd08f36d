import { constants, createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { weakKeyProblem } from '../../protocol/jwk-strength';

interface AlgorithmParameters {
  readonly kty: 'EC' | 'RSA' | 'OKP';
  readonly crv?: string;
  /** node:crypto's digest; null where the algorithm hashes by itself (Ed25519). */
  readonly digest: string | null;
  readonly pss?: boolean;
}

/** RFC 7518 §3.1 and RFC 8037 §3.1 (RFC 9864 for `Ed25519`): the key each DPoP algorithm needs. */
const ALGORITHMS: Readonly<Record<string, AlgorithmParameters>> = {
  ES256: { kty: 'EC', crv: 'P-256', digest: 'sha256' },
  ES384: { kty: 'EC', crv: 'P-384', digest: 'sha384' },
  ES512: { kty: 'EC', crv: 'P-521', digest: 'sha512' },
  RS256: { kty: 'RSA', digest: 'sha256' },
  RS384: { kty: 'RSA', digest: 'sha384' },
  RS512: { kty: 'RSA', digest: 'sha512' },
  PS256: { kty: 'RSA', digest: 'sha256', pss: true },
  PS384: { kty: 'RSA', digest: 'sha384', pss: true },
  PS512: { kty: 'RSA', digest: 'sha512', pss: true },
  EdDSA: { kty: 'OKP', crv: 'Ed25519', digest: null },
  Ed25519: { kty: 'OKP', crv: 'Ed25519', digest: null },
};

/** RFC 7638 §3.2: the members a key's thumbprint covers, in their order. */
const THUMBPRINT_MEMBERS: Readonly<Record<AlgorithmParameters['kty'], readonly string[]>> = {
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  OKP: ['crv', 'kty', 'x'],
};

/** A proof's public key, imported, with its RFC 7638 thumbprint. */
export interface DpopProofKey {
  readonly key: KeyObject;
  readonly jkt: string;
}

/**
 * The public key of a DPoP proof's `jwk` header (RFC 9449 §4.2) for the proof's `alg`, imported with
 * node:crypto, or why it cannot verify such a proof.
 */
export function keyOf(jwk: Readonly<Record<string, unknown>>, alg: string): DpopProofKey | string {
  const parameters = ALGORITHMS[alg];
  if (!parameters) return 'the DPoP proof alg is not supported';
  if (jwk.kty !== parameters.kty || (parameters.crv !== undefined && jwk.crv !== parameters.crv)) return `the DPoP proof jwk is no key for ${alg}`;
  // As a JWK import checks them (RFC 7517 §4.2 to §4.4): the key may not be meant for something else.
  if (jwk.alg !== undefined && jwk.alg !== alg) return 'the DPoP proof jwk is for another alg';
  if (jwk.use !== undefined && jwk.use !== 'sig') return 'the DPoP proof jwk is not for signatures';
  if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify'))) return 'the DPoP proof jwk is not for verifying';
  const members = THUMBPRINT_MEMBERS[parameters.kty];
  if (!members.every((name) => typeof jwk[name] === 'string')) return 'the DPoP proof jwk lacks a member of its key type';
  const weak = weakKeyProblem(jwk);
  if (weak) return `the DPoP proof jwk is too weak: ${weak}`;
  const canonical = JSON.stringify(Object.fromEntries(members.map((name) => [name, jwk[name]])));
  try {
    return { key: createPublicKey({ key: JSON.parse(canonical), format: 'jwk' }), jkt: createHash('sha256').update(canonical).digest('base64url') };
  } catch {
    return 'the DPoP proof jwk is not a valid public key';
  }
}

/** Whether the compact JWS `proof` carries a valid `alg` signature by `key` (RFC 7515 §5.2). */
export function hasValidSignature(proof: string, alg: string, key: KeyObject): boolean {
  const parameters = ALGORITHMS[alg];
  const end = proof.lastIndexOf('.');
  const signature = Buffer.from(proof.slice(end + 1), 'base64url');
  const options = parameters.pss
    ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
    : { key, dsaEncoding: 'ieee-p1363' as const };
  try {
    return verify(parameters.digest, Buffer.from(proof.slice(0, end), 'ascii'), options, signature);
  } catch {
    return false;
  }
}
