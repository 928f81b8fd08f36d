const BASE64URL = /^[A-Za-z0-9_-]*$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Whether `segment` is the one base64url text of its bytes (RFC 7515 §2: base64url without `=`
 * padding). Decoders ignore the spare low bits of the last character, so `…Q` and `…R` can decode
 * to the same signature: accepting both would give one token many accepted spellings. Refused too:
 * padding, whitespace, the `+` and `/` of base64, and a length no byte string encodes to.
 */
export function isCanonicalBase64url(segment: string): boolean {
  if (!BASE64URL.test(segment)) return false;
  const remainder = segment.length % 4;
  if (remainder === 0) return true;
  if (remainder === 1) return false;
  // Two trailing characters carry one byte (4 spare bits), three carry two bytes (2 spare bits).
  const spareBits = remainder === 2 ? 0b1111 : 0b11;
  return (ALPHABET.indexOf(segment[segment.length - 1]) & spareBits) === 0;
}

/** A compact JWS (RFC 7515 §7.1): three segments, each canonical base64url. */
export function isCanonicalCompactJws(token: string): boolean {
  const segments = token.split('.');
  return segments.length === 3 && segments.every(isCanonicalBase64url);
}
