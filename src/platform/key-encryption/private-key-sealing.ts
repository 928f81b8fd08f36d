import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

/**
 * Private keys at rest: AES-256-GCM under a key-encryption key (KEK), with the key id as
 * additional authenticated data so that a sealed key cannot be moved to another row.
 *
 * Stored form: `sealed:v1:<kek id>:<iv>:<tag>:<ciphertext>`, base64url parts. The KEK id (a hash
 * prefix of the KEK) names the KEK a key was sealed under, so a wrong KEK is reported as such.
 * Rows written before encryption hold a PKCS#8 PEM; they are read as they are and re-sealed.
 */
const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class KeyEncryptionKey {
  readonly id: string;

  constructor(private readonly bytes: Buffer) {
    if (bytes.length !== 32) throw new Error('a key-encryption key is 32 bytes');
    this.id = createHash('sha256').update('tollgate key-encryption key id').update(bytes).digest('base64url').slice(0, 8);
  }

  seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.bytes, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${PREFIX}${[this.id, iv, cipher.getAuthTag(), ciphertext].map(encode).join(':')}`;
  }

  /** Throws when the ciphertext, tag or associated data was changed. */
  open(iv: Buffer, tag: Buffer, ciphertext: Buffer, associatedData: string): string {
    const decipher = createDecipheriv('aes-256-gcm', this.bytes, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }

  /**
   * A 32-byte key for another purpose, derived with HKDF-SHA256 (RFC 5869): every instance holding
   * this KEK derives the same key, and the derived key reveals nothing of the KEK.
   */
  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.bytes, 'tollgate', `tollgate ${purpose}`, 32));
  }

  // Never print the key material, whatever logs the object.
  toJSON(): string {
    return `[key-encryption key ${this.id}]`;
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}

/** The KEK that seals new keys, and earlier ones that may still open old rows. */
export class KeyEncryptionKeyring {
  constructor(
    readonly current: KeyEncryptionKey,
    readonly previous: readonly KeyEncryptionKey[] = [],
  ) {}

  find(id: string): KeyEncryptionKey | undefined {
    return [this.current, ...this.previous].find((key) => key.id === id);
  }
}

export class UnsealError extends Error {}

export interface OpenedPrivateKey {
  readonly pem: string;
  /** False for a plaintext row or one sealed under a previous KEK: it should be re-sealed. */
  readonly sealedUnderCurrent: boolean;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function sealPrivateKey(pem: string, kid: string, keyring: KeyEncryptionKeyring): string {
  return keyring.current.seal(pem, associatedData(kid));
}

export function openPrivateKey(stored: string, kid: string, keyring: KeyEncryptionKeyring): OpenedPrivateKey {
  if (!isSealed(stored)) {
    if (!stored.startsWith('-----BEGIN ')) throw new UnsealError(`signing key ${kid} is neither sealed nor a PEM`);
    return { pem: stored, sealedUnderCurrent: false };
  }
  const { plaintext, sealedUnderCurrent } = openSealed(stored, keyring, associatedData(kid), `signing key ${kid}`);
  return { pem: plaintext, sealedUnderCurrent };
}

/**
 * Opens a value the keyring sealed with `associatedData`; `name` says what it is in the error. Throws
 * an UnsealError when it is not in the sealed form, its KEK is not in the keyring, or it was altered
 * or moved to another row.
 */
export function openSealed(
  stored: string,
  keyring: KeyEncryptionKeyring,
  associatedData: string,
  name: string,
): { plaintext: string; sealedUnderCurrent: boolean } {
  const parts = isSealed(stored) ? stored.slice(PREFIX.length).split(':') : [];
  if (parts.length !== 4) throw new UnsealError(`${name} is not in the sealed format`);
  const [kekId, iv, tag, ciphertext] = parts;
  const kek = keyring.find(kekId);
  if (!kek) {
    throw new UnsealError(
      `${name} was sealed under key-encryption key ${kekId}, but KEY_ENCRYPTION_KEY is ${keyring.current.id}` +
        (keyring.previous.length > 0 ? ` (previous: ${keyring.previous.map((key) => key.id).join(', ')})` : ''),
    );
  }
  try {
    return { plaintext: kek.open(decode(iv), decode(tag), decode(ciphertext), associatedData), sealedUnderCurrent: kek === keyring.current };
  } catch {
    throw new UnsealError(`${name} failed authentication: its stored form was altered or belongs to another row`);
  }
}

function associatedData(kid: string): string {
  return `tollgate signing key ${kid}`;
}

function encode(bytes: Buffer | string): string {
  return typeof bytes === 'string' ? bytes : bytes.toString('base64url');
}

function decode(text: string): Buffer {
  return Buffer.from(text, 'base64url');
}
