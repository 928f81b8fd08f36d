import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { verifyBcrypt, verifyPbkdf2Sha256 } from './imported-password.verifiers';

const KEY_LENGTH = 32;
const DEFAULT_COST: ScryptOptions = { N: 16384, r: 8, p: 1 };
const CURRENT_PREFIX = `scrypt$${DEFAULT_COST.N}$${DEFAULT_COST.r}$${DEFAULT_COST.p}$`;

function derive(password: string, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...cost, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * Password hashes. New ones are scrypt, `scrypt$N$r$p$salt$hash` (salt and hash base64). Hashes
 * imported from other identity servers (bcrypt, `pbkdf2-sha256$iterations$salt$hash`) are verified
 * as they are and replaced by scrypt at the next successful sign-in (docs/users.md).
 */
export class PasswordHasher {
  // Verified against when the user does not exist, so that the answer takes as long either way.
  private readonly decoy = this.hash(randomBytes(16).toString('base64'));

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, DEFAULT_COST);
    return ['scrypt', DEFAULT_COST.N, DEFAULT_COST.r, DEFAULT_COST.p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, encoded: string | undefined): Promise<boolean> {
    if (encoded?.startsWith('$2')) return verifyBcrypt(password, encoded);
    if (encoded?.startsWith('pbkdf2-sha256$')) return verifyPbkdf2Sha256(password, encoded);
    const parts = (encoded ?? (await this.decoy)).split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [N, r, p] = parts.slice(1, 4).map(Number);
    const expected = Buffer.from(parts[5], 'base64');
    if (![N, r, p].every(Number.isSafeInteger) || expected.length !== KEY_LENGTH) return false;
    // A stored cost that scrypt refuses (not a power of two, over maxmem) is a malformed hash, not a fault.
    const actual = await derive(password, Buffer.from(parts[4], 'base64'), { N, r, p }).catch(() => undefined);
    return actual !== undefined && timingSafeEqual(actual, expected) && encoded !== undefined;
  }

  /** True for hashes of another algorithm or an older cost: replace them once the password is known. */
  needsRehash(encoded: string): boolean {
    return !encoded.startsWith(CURRENT_PREFIX);
  }
}
