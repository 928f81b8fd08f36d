import { pbkdf2Sync } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { importPasswordHash } from './imported-password-hash';
import { PasswordHasher } from './password.hasher';

const PASSWORD = 'correct horse';
const SALT = Buffer.from('0123456789abcdef');
const derived = (iterations: number, salt: Buffer = SALT) => pbkdf2Sync(PASSWORD, salt, iterations, 32, 'sha256');

function aspNetIdentityV3(prf: number, iterations: number): string {
  const header = Buffer.alloc(13);
  header[0] = 0x01;
  header.writeUInt32BE(prf, 1);
  header.writeUInt32BE(iterations, 5);
  header.writeUInt32BE(SALT.length, 9);
  return Buffer.concat([header, SALT, derived(iterations)]).toString('base64');
}

describe('importPasswordHash', () => {
  const hasher = new PasswordHasher();
  const imported = (value: unknown) => {
    const result = importPasswordHash(value);
    if ('error' in result) throw new Error(result.error);
    return result.hash;
  };

  describe('refuses', () => {
    it.each([
      ['a number', 42],
      ['an empty string', ''],
      ['an unknown format', 'md5$abc'],
      ['bcrypt above cost 14', bcrypt.hashSync(PASSWORD, 4).replace('$04$', '$15$')],
      ['PBKDF2 with too many iterations', `pbkdf2-sha256$3000000$${SALT.toString('base64')}$${derived(1000).toString('base64')}`],
      ['PBKDF2 with too few iterations', `pbkdf2_sha256$10$saltsalt$${derived(10).toString('base64')}`],
      ['ASP.NET Identity with HMAC-SHA512', aspNetIdentityV3(2, 10000)],
      [
        'a Keycloak credential of another algorithm',
        { secretData: '{"value":"x","salt":"eA=="}', credentialData: '{"hashIterations":1,"algorithm":"argon2"}' },
      ],
      ['a Keycloak credential without data', { secretData: 'not json' }],
    ])('%s', (_, value) => {
      expect(importPasswordHash(value)).toEqual({ error: expect.any(String) });
    });
  });

  describe('accepts and verifies', () => {
    it('bcrypt as it is', async () => {
      const hash = bcrypt.hashSync(PASSWORD, 4);
      expect(imported(hash)).toBe(hash);
      await expect(hasher.verify(PASSWORD, hash)).resolves.toBe(true);
      await expect(hasher.verify('wrong', hash)).resolves.toBe(false);
    });

    it('Django pbkdf2_sha256, whose salt is text', async () => {
      const hash = imported(`pbkdf2_sha256$1000$saltsalt$${derived(1000, Buffer.from('saltsalt')).toString('base64')}`);
      expect(hash).toBe(`pbkdf2-sha256$1000$${Buffer.from('saltsalt').toString('base64')}$${derived(1000, Buffer.from('saltsalt')).toString('base64')}`);
      await expect(hasher.verify(PASSWORD, hash)).resolves.toBe(true);
      await expect(hasher.verify('wrong', hash)).resolves.toBe(false);
    });

    it('passlib $pbkdf2-sha256$ in adapted base64', async () => {
      const ab64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '').replace(/\+/g, '.');
      const hash = imported(`$pbkdf2-sha256$2000$${ab64(SALT)}$${ab64(derived(2000))}`);
      await expect(hasher.verify(PASSWORD, hash)).resolves.toBe(true);
    });

    it('ASP.NET Core Identity v3 with HMAC-SHA256', async () => {
      const hash = imported(aspNetIdentityV3(1, 10000));
      expect(hash.startsWith('pbkdf2-sha256$10000$')).toBe(true);
      await expect(hasher.verify(PASSWORD, hash)).resolves.toBe(true);
    });

    it('a Keycloak pbkdf2-sha256 credential, members as JSON text or objects', async () => {
      const secretData = JSON.stringify({ value: derived(27500).toString('base64'), salt: SALT.toString('base64') });
      const hash = imported({ type: 'password', secretData, credentialData: { hashIterations: 27500, algorithm: 'pbkdf2-sha256' } });
      await expect(hasher.verify(PASSWORD, hash)).resolves.toBe(true);
    });

    it("Tollgate's own scrypt hashes", async () => {
      const hash = await hasher.hash(PASSWORD);
      expect(imported(hash)).toBe(hash);
    });
  });
});
