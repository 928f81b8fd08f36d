import { calculateJwkThumbprint } from 'jose';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { weakKeyProblem } from '../../protocol/jwk-strength';

interface AlgorithmParameters {
  readonly kty: 'EC' | 'RSA' | 'OKP';
  readonly crv?: string;
}

/** RFC 7518 §3.1 and RFC 8037 §3.1 (RFC 9864 for `Ed25519`): the key each DPoP algorithm needs. */
const ALGORITHMS: Readonly<Record<string, AlgorithmParameters>> = {
  ES256: { kty: 'EC', crv: 'P-256' },
  ES384: { kty: 'EC', crv: 'P-384' },
  ES512: { kty: 'EC', crv: 'P-521' },
  RS256: { kty: 'RSA' },
  RS384: { kty: 'RSA' },
  RS512: { kty: 'RSA' },
  PS256: { kty: 'RSA' },
  PS384: { kty: 'RSA' },
  PS512: { kty: 'RSA' },
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  Ed25519: { kty: 'OKP', crv: 'Ed25519' },
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
 * node:crypto, with its RFC 7638 thumbprint (jose), or why it cannot verify such a proof.
 */
export async function keyOf(jwk: Readonly<Record<string, unknown>>, alg: string): Promise<DpopProofKey | string> {
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
  const publicJwk = Object.fromEntries(members.map((name) => [name, jwk[name] as string]));
  try {
    return { key: createPublicKey({ key: publicJwk, format: 'jwk' }), jkt: await calculateJwkThumbprint(publicJwk, 'sha256') };
  } catch {
    return 'the DPoP proof jwk is not a valid public key';
  }
}
