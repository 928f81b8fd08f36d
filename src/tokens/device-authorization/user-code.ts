import { randomInt } from 'node:crypto';

/** RFC 8628 §6.1: consonants only, no vowels (no words), none that look alike (no 0/O, 1/I/L confusion). */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;
/** What a typed code may be at most before normalisation: the code, a dash, some spaces. */
export const MAX_TYPED_USER_CODE_LENGTH = 32;

/** A new user code: 8 characters of the alphabet, 20⁸ ≈ 2.6 × 10¹⁰ values (about 34.6 bits). */
export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/**
 * A typed code as stored (RFC 8628 §6.1: case and punctuation are not significant): upper case,
 * dashes and white space removed. Undefined when the rest is not 8 characters of the alphabet.
 */
export function normaliseUserCode(typed: string): string | undefined {
  if (typed.length > MAX_TYPED_USER_CODE_LENGTH) return undefined;
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return undefined;
  for (const character of code) if (!USER_CODE_ALPHABET.includes(character)) return undefined;
  return code;
}

/** How a code is shown: `BCDF-GHJK`. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, USER_CODE_LENGTH / 2)}-${code.slice(USER_CODE_LENGTH / 2)}`;
}
