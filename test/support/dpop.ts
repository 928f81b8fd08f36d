import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import type * as oauth from 'oauth4webapi';

export type DpopKey = Awaited<ReturnType<typeof dpopKey>>;

/**
 * A DPoP key of a client, and proofs signed with it (RFC 9449 §4.2), built with jose as any client
 * would. `alg` names the key type and the proofs' `alg`: for Ed25519 keys both `EdDSA` and `Ed25519` (RFC 9864).
 */
export async function dpopKey(alg: 'ES256' | 'EdDSA' | 'Ed25519' = 'ES256') {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return {
    pair: { privateKey, publicKey } as oauth.CryptoKeyPair,
    jkt: await calculateJwkThumbprint(jwk, 'sha256'),
    proof: (htm: string, htu: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
      signProof(privateKey, jwk, alg, { htm, htu, ...claims }, header),
  };
}

function signProof(key: CryptoKey, jwk: JWK, alg: string, claims: Record<string, unknown>, header: Record<string, unknown>): Promise<string> {
  return new SignJWT({ jti: randomBytes(16).toString('base64url'), iat: Math.floor(Date.now() / 1000), ...claims })
    .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk, ...header })
    .sign(key);
}

/** RFC 9449 §4.2 `ath`. */
export const ath = (token: string) => createHash('sha256').update(token).digest('base64url');
