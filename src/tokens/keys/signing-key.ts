import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type JsonWebKey, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { SigningAlgorithm } from '../../platform/config/app.config';
import type { KeyTimeline } from './key-rotation-plan';
import { openPrivateKey, type KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';

/** A signing key as stored: the private part sealed under the key-encryption key, the public part as SPKI PEM. */
export interface StoredSigningKey extends KeyTimeline {
  /** Sealed PKCS#8 PEM; a plaintext PEM in rows from before encryption. */
  readonly privateKey: string;
  /** Absent in rows from before rotation: derived from the private part then. */
  readonly publicKeyPem?: string;
}

/** A freshly generated key, not yet sealed. */
export interface GeneratedSigningKey {
  readonly kid: string;
  readonly algorithm: SigningAlgorithm;
  readonly privateKeyPem: string;
  readonly publicKeyPem: string;
}

/** A key as verifiers see it: published in the JWKS, parsed once. */
export interface PublishedKey {
  readonly kid: string;
  readonly algorithm: SigningAlgorithm;
  readonly publicKey: KeyObject;
  readonly publicJwk: JsonWebKey;
  readonly createdAt: Date;
  readonly activatesAt: Date;
}

/** A key ready to sign: parsed once, never per token. */
export interface SigningKey extends PublishedKey {
  readonly privateKey: KeyObject;
}

const generate = promisify(generateKeyPair);

export async function generateSigningKey(algorithm: SigningAlgorithm): Promise<GeneratedSigningKey> {
  const { privateKey } =
    algorithm === 'ES256'
      ? await generate('ec', { namedCurve: 'P-256' })
      : algorithm === 'EdDSA'
        ? await generate('ed25519')
        : await generate('rsa', { modulusLength: 2048 });
  const publicKey = createPublicKey(privateKey);
  return {
    kid: thumbprint(publicKey.export({ format: 'jwk' })),
    algorithm,
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
}

/** The public half, from the stored public key or, for old rows, from the private key. */
export function loadPublishedKey(stored: StoredSigningKey, keyring: KeyEncryptionKeyring): PublishedKey {
  const publicKey = stored.publicKeyPem
    ? createPublicKey(stored.publicKeyPem)
    : createPublicKey(createPrivateKey(openPrivateKey(stored.privateKey, stored.kid, keyring).pem));
  const publicJwk = { ...publicKey.export({ format: 'jwk' }), kid: stored.kid, alg: stored.algorithm, use: 'sig' };
  return { kid: stored.kid, algorithm: stored.algorithm, publicKey, publicJwk, createdAt: stored.createdAt, activatesAt: stored.activatesAt };
}

/** Opens the private part; throws under a wrong key-encryption key. */
export function loadSigningKey(stored: StoredSigningKey, published: PublishedKey, keyring: KeyEncryptionKeyring): SigningKey {
  const privateKey = createPrivateKey(openPrivateKey(stored.privateKey, stored.kid, keyring).pem);
  if (!createPublicKey(privateKey).equals(published.publicKey)) throw new Error(`signing key ${stored.kid}: the private and public parts do not match`);
  return { ...published, privateKey };
}

/** RFC 7638 JWK thumbprint, used as the key id. */
function thumbprint(jwk: JsonWebKey): string {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : jwk.kty === 'OKP'
        ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x }
        : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}
