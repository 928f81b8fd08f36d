import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
const DEFAULT_COST: ScryptOptions = { N: 16384, r: 8, p: 1 };

function derive(password: string, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...cost, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** scrypt password hashes in the form `scrypt$N$r$p$salt$hash` (salt and hash base64). */
export class PasswordHasher {
  // Verified against when the user does not exist, so that the answer takes as long either way.
  private readonly decoy = this.hash(randomBytes(16).toString('base64'));

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, DEFAULT_COST);
    return ['scrypt', DEFAULT_COST.N, DEFAULT_COST.r, DEFAULT_COST.p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, encoded: string | undefined): Promise<boolean> {
    const parts = (encoded ?? (await this.decoy)).split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [N, r, p] = parts.slice(1, 4).map(Number);
    const expected = Buffer.from(parts[5], 'base64');
    if (![N, r, p].every(Number.isSafeInteger) || expected.length !== KEY_LENGTH) return false;
    // A stored cost that scrypt refuses (not a power of two, over maxmem) is a malformed hash, not a fault.
    const actual = await derive(password, Buffer.from(parts[4], 'base64'), { N, r, p }).catch(() => undefined);
    return actual !== undefined && timingSafeEqual(actual, expected) && encoded !== undefined;
  }
}
