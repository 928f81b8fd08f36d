import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type JsonWebKey, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { SigningAlgorithm } from '../config/app.config';

/** A signing key as stored: the private part as PKCS#8 PEM. */
export interface StoredSigningKey {
  readonly kid: string;
  readonly algorithm: SigningAlgorithm;
  readonly privateKeyPem: string;
  readonly createdAt: Date;
}

/** A signing key ready for use: parsed once, never per token. */
export interface SigningKey {
  readonly kid: string;
  readonly algorithm: SigningAlgorithm;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly publicJwk: JsonWebKey;
  readonly createdAt: Date;
}

const generate = promisify(generateKeyPair);

export async function generateSigningKey(algorithm: SigningAlgorithm): Promise<StoredSigningKey> {
  const { privateKey } =
    algorithm === 'ES256'
      ? await generate('ec', { namedCurve: 'P-256' })
      : await generate('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return { kid: thumbprint(createPublicKey(privateKey).export({ format: 'jwk' })), algorithm, privateKeyPem: pem, createdAt: new Date() };
}

export function loadSigningKey(stored: StoredSigningKey): SigningKey {
  const privateKey = createPrivateKey(stored.privateKeyPem);
  const publicKey = createPublicKey(privateKey);
  const publicJwk = { ...publicKey.export({ format: 'jwk' }), kid: stored.kid, alg: stored.algorithm, use: 'sig' };
  return { kid: stored.kid, algorithm: stored.algorithm, privateKey, publicKey, publicJwk, createdAt: stored.createdAt };
}

/** RFC 7638 JWK thumbprint, used as the key id. */
function thumbprint(jwk: JsonWebKey): string {
  const members = jwk.kty === 'EC' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}
