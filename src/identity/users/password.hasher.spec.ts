import bcrypt from 'bcryptjs';
import { parseScryptHash, PasswordHasher } from './password.hasher';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher();
  let aliceHash: string;

  beforeAll(async () => {
    aliceHash = await hasher.hash('alice');
  });

  describe('verify', () => {
    it('rejects a wrong password', async () => {
      await expect(hasher.verify('Alice', aliceHash)).resolves.toBe(false);
    });

    it('rejects any password for an unknown user (no hash)', async () => {
      await expect(hasher.verify('alice', undefined)).resolves.toBe(false);
    });

    it.each([
      ['an empty hash', () => ''],
      ['another algorithm', aliceHashWith(0, 'bcrypt')],
      ['a missing part', () => 'scrypt$16384$8$1$c2FsdA=='],
      ['a non-numeric cost', aliceHashWith(1, 'lots')],
      ['a cost scrypt refuses', aliceHashWith(1, '3')],
      ['a cost over the memory limit', aliceHashWith(1, '1048576')],
      ['a truncated key', aliceHashWith(5, 'AAAA')],
    ])('returns false for %s', async (_, encoded) => {
      await expect(hasher.verify('alice', encoded())).resolves.toBe(false);
    });

    it.each([
      ['an empty hash', () => ''],
      ['a missing part', () => 'scrypt$16384$8$1$c2FsdA=='],
      ['a non-numeric cost', aliceHashWith(1, 'lots')],
      ['a truncated key', aliceHashWith(5, 'AAAA')],
    ])('derives against the decoy for %s, as for an unknown user: it is not a scrypt hash', (_, encoded) => {
      expect(parseScryptHash(encoded())).toBeUndefined();
    });

    it('reads the cost, salt and key of a scrypt hash', () => {
      const parsed = parseScryptHash(aliceHash);
      expect(parsed?.cost).toEqual({ N: 16384, r: 8, p: 1 });
      expect(parsed?.salt).toHaveLength(16);
      expect(parsed?.key).toHaveLength(32);
    });

    it('accepts the right password', async () => {
      await expect(hasher.verify('alice', aliceHash)).resolves.toBe(true);
    });

    it('accepts the same password in another Unicode normalization', async () => {
      await expect(hasher.verify('Cafe\u0301', await hasher.hash('Caf\u00e9'))).resolves.toBe(true);
    });
  });

  describe('hash', () => {
    it('writes scrypt$N$r$p$salt$key with a fresh salt each time', async () => {
      const again = await hasher.hash('alice');
      expect(aliceHash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
      expect(again).not.toBe(aliceHash);
    });
  });

  describe('needsRehash', () => {
    it('is true for imported and older-cost hashes', () => {
      expect(hasher.needsRehash(bcrypt.hashSync('x', 4))).toBe(true);
      expect(hasher.needsRehash('pbkdf2-sha256$1000$c2FsdHNhbHQ=$AAAAAAAAAAAAAAAAAAAAAA==')).toBe(true);
      expect(hasher.needsRehash('scrypt$1024$8$1$c2FsdA==$a2V5')).toBe(true);
    });

    it('is false for a hash this version writes', async () => {
      expect(hasher.needsRehash(await hasher.hash('x'))).toBe(false);
    });
  });

  /** alice's hash with one `$`-separated part replaced; read lazily, after beforeAll. */
  function aliceHashWith(index: number, value: string): () => string {
    return () =>
      aliceHash
        .split('$')
        .map((part, position) => (position === index ? value : part))
        .join('$');
  }
});
