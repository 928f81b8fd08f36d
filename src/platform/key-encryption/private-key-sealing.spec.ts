import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isSealed, KeyEncryptionKey, KeyEncryptionKeyring, openPrivateKey, UnsealError, sealPrivateKey } from './private-key-sealing';

const PEM = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const kek = () => new KeyEncryptionKey(randomBytes(32));

/** Flips one bit of the base64url part at `index` (0 kek id, 1 iv, 2 tag, 3 ciphertext). */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[2 + index], 'base64url');
  bytes[0] ^= 0x01;
  parts[2 + index] = bytes.toString('base64url');
  return parts.join(':');
}

describe('KeyEncryptionKey', () => {
  it('refuses key material that is not 32 bytes', () => {
    expect(() => new KeyEncryptionKey(randomBytes(16))).toThrow('a key-encryption key is 32 bytes');
  });

  it('derives one key per purpose, the same from the same key material, and never the key itself', () => {
    const bytes = randomBytes(32);
    const key = new KeyEncryptionKey(bytes);
    expect(key.derive('csrf token v1')).toEqual(new KeyEncryptionKey(Buffer.from(bytes)).derive('csrf token v1'));
    expect(key.derive('csrf token v1')).toHaveLength(32);
    expect(key.derive('csrf token v1')).not.toEqual(key.derive('another purpose'));
    expect(key.derive('csrf token v1')).not.toEqual(kek().derive('csrf token v1'));
    expect(key.derive('csrf token v1')).not.toEqual(bytes);
  });

  it('never shows its bytes when serialized', () => {
    const key = kek();
    expect(JSON.stringify({ key })).toBe(`{"key":"[key-encryption key ${key.id}]"}`);
  });
});

describe('openPrivateKey', () => {
  it('refuses a row that is neither sealed nor a PEM', () => {
    expect(() => openPrivateKey('garbage', 'kid-1', new KeyEncryptionKeyring(kek()))).toThrow(UnsealError);
  });

  it('refuses a sealed row with parts missing', () => {
    const ring = new KeyEncryptionKeyring(kek());
    const sealed = sealPrivateKey(PEM, 'kid-1', ring);
    expect(() => openPrivateKey(sealed.split(':').slice(0, 5).join(':'), 'kid-1', ring)).toThrow('not in the sealed format');
  });

  it('names both key-encryption keys when the row was sealed under another one', () => {
    const sealedUnder = new KeyEncryptionKeyring(kek());
    const ring = new KeyEncryptionKeyring(kek());
    const sealed = sealPrivateKey(PEM, 'kid-1', sealedUnder);
    expect(() => openPrivateKey(sealed, 'kid-1', ring)).toThrow(
      `signing key kid-1 was sealed under key-encryption key ${sealedUnder.current.id}, but KEY_ENCRYPTION_KEY is ${ring.current.id}`,
    );
  });

  it.each([
    ['the iv', 1],
    ['the authentication tag', 2],
    ['the ciphertext', 3],
  ])('detects a change to %s', (_, index) => {
    const ring = new KeyEncryptionKeyring(kek());
    const sealed = sealPrivateKey(PEM, 'kid-1', ring);
    expect(() => openPrivateKey(tamper(sealed, index), 'kid-1', ring)).toThrow('failed authentication');
  });

  it('detects a sealed key moved to another row (the kid is authenticated)', () => {
    const ring = new KeyEncryptionKeyring(kek());
    expect(() => openPrivateKey(sealPrivateKey(PEM, 'kid-1', ring), 'kid-2', ring)).toThrow('failed authentication');
  });

  it('opens what it sealed, and never stores the PEM in the clear', () => {
    const ring = new KeyEncryptionKeyring(kek());
    const sealed = sealPrivateKey(PEM, 'kid-1', ring);
    expect(sealed).toMatch(/^sealed:v1:[\w-]{8}:[\w-]+:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain('PRIVATE KEY');
    expect(isSealed(sealed)).toBe(true);
    expect(openPrivateKey(sealed, 'kid-1', ring)).toEqual({ pem: PEM, sealedUnderCurrent: true });
  });

  it('uses a fresh iv every time', () => {
    const ring = new KeyEncryptionKeyring(kek());
    expect(sealPrivateKey(PEM, 'kid-1', ring)).not.toBe(sealPrivateKey(PEM, 'kid-1', ring));
  });

  it('opens a row sealed under a previous key-encryption key, marking it for re-sealing', () => {
    const old = kek();
    const sealed = sealPrivateKey(PEM, 'kid-1', new KeyEncryptionKeyring(old));
    expect(openPrivateKey(sealed, 'kid-1', new KeyEncryptionKeyring(kek(), [old]))).toEqual({ pem: PEM, sealedUnderCurrent: false });
  });

  it('reads a plaintext PEM from before encryption, marking it for re-sealing', () => {
    expect(isSealed(PEM)).toBe(false);
    expect(openPrivateKey(PEM, 'kid-1', new KeyEncryptionKeyring(kek()))).toEqual({ pem: PEM, sealedUnderCurrent: false });
  });
});
