import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { verifyBcrypt, verifyPbkdf2Sha256 } from './imported-password.verifiers';

const KEY_LENGTH = 32;
const DEFAULT_COST: ScryptOptions = { N: 16384, r: 8, p: 1 };
const CURRENT_PREFIX = `scrypt$${DEFAULT_COST.N}$${DEFAULT_COST.r}$${DEFAULT_COST.p}$`;

function derive(password: string, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...cost, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** A stored scrypt hash, `scrypt$N$r$p$salt$key` (salt and key base64). */
export interface ScryptHash {
  readonly cost: ScryptOptions;
  readonly salt: Buffer;
  readonly key: Buffer;
}

/** The parts of `encoded`, or undefined when it is not a well-formed scrypt hash. */
export function parseScryptHash(encoded: string): ScryptHash | undefined {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const key = Buffer.from(parts[5], 'base64');
  if (![N, r, p].every(Number.isSafeInteger) || key.length !== KEY_LENGTH) return undefined;
  return { cost: { N, r, p }, salt: Buffer.from(parts[4], 'base64'), key };
}

/**
 * Password hashes. New ones are scrypt. Hashes imported from other identity servers (bcrypt,
 * `pbkdf2-sha256$iterations$salt$hash`) are verified as they are and replaced by scrypt at the next
 * successful sign-in (docs/users.md).
 */
export class PasswordHasher {
  // Derived against when there is no usable hash (unknown user, no password yet, a malformed row),
  // so that the answer takes as long as for a real one.
  private readonly decoy: Promise<ScryptHash> = (async () => {
    const salt = randomBytes(16);
    return { cost: DEFAULT_COST, salt, key: await derive(randomBytes(16).toString('base64'), salt, DEFAULT_COST) };
  })();

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, DEFAULT_COST);
    return ['scrypt', DEFAULT_COST.N, DEFAULT_COST.r, DEFAULT_COST.p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, encoded: string | undefined): Promise<boolean> {
    if (encoded?.startsWith('$2')) return verifyBcrypt(password, encoded);
    if (encoded?.startsWith('pbkdf2-sha256$')) return verifyPbkdf2Sha256(password, encoded);
    const stored = encoded === undefined ? undefined : parseScryptHash(encoded);
    const target = stored ?? (await this.decoy);
    // A stored cost that scrypt refuses (not a power of two, over maxmem) is a malformed hash, not a fault.
    const actual = await derive(password, target.salt, target.cost).catch(() => undefined);
    return stored !== undefined && actual !== undefined && timingSafeEqual(actual, target.key);
  }

  /** True for hashes of another algorithm or an older cost: replace them once the password is known. */
  needsRehash(encoded: string): boolean {
    return !encoded.startsWith(CURRENT_PREFIX);
  }
}
