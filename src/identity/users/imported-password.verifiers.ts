import { pbkdf2, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';

/** Bounds on imported hashes, so that one stored hash cannot make a sign-in cost seconds of CPU. */
export const MAX_BCRYPT_COST = 14;
export const PBKDF2_ITERATIONS = { min: 1000, max: 2_000_000 } as const;

const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function isBcryptHash(encoded: string): boolean {
  const match = BCRYPT.exec(encoded);
  return match !== null && Number(match[1]) >= 4 && Number(match[1]) <= MAX_BCRYPT_COST;
}

export async function verifyBcrypt(password: string, encoded: string): Promise<boolean> {
  return isBcryptHash(encoded) && bcrypt.compare(password, encoded);
}

/** `pbkdf2-sha256$iterations$salt$hash`, salt and hash base64: the form imported PBKDF2 hashes are kept in. */
export function parsePbkdf2Sha256(encoded: string): { iterations: number; salt: Buffer; hash: Buffer } | undefined {
  const parts = encoded.split('$');
  if (parts.length !== 4 || parts[0] !== 'pbkdf2-sha256' || !/^\d{1,7}$/.test(parts[1])) return undefined;
  const iterations = Number(parts[1]);
  if (iterations < PBKDF2_ITERATIONS.min || iterations > PBKDF2_ITERATIONS.max) return undefined;
  if (!BASE64.test(parts[2]) || !BASE64.test(parts[3])) return undefined;
  const salt = Buffer.from(parts[2], 'base64');
  const hash = Buffer.from(parts[3], 'base64');
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return undefined;
  return { iterations, salt, hash };
}

export async function verifyPbkdf2Sha256(password: string, encoded: string): Promise<boolean> {
  const parsed = parsePbkdf2Sha256(encoded);
  if (!parsed) return false;
  const actual = await new Promise<Buffer>((resolve, reject) =>
    pbkdf2(password, parsed.salt, parsed.iterations, parsed.hash.length, 'sha256', (error, key) => (error ? reject(error) : resolve(key))),
  );
  return timingSafeEqual(actual, parsed.hash);
}
