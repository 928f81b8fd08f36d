import { isBcryptHash, parsePbkdf2Sha256 } from './imported-password.verifiers';

/**
 * Turns a password hash exported by another identity server into the form Tollgate stores, or
 * explains why it cannot (docs/users.md lists the formats). Accepted:
 * - Tollgate's own `scrypt$…`, and `pbkdf2-sha256$iterations$salt$hash` (base64);
 * - bcrypt `$2a$`, `$2b$`, `$2y$` (Auth0, Okta, most PHP and Ruby applications);
 * - Django `pbkdf2_sha256$iterations$salt$hash` and passlib `$pbkdf2-sha256$iterations$salt$hash`;
 * - ASP.NET Core Identity version 3 hashes with HMAC-SHA256 (Duende IdentityServer user stores);
 * - a Keycloak password credential `{ secretData, credentialData }` with algorithm `pbkdf2-sha256`.
 */
export function importPasswordHash(value: unknown): { hash: string } | { error: string } {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return fromKeycloak(value as Record<string, unknown>);
  if (typeof value !== 'string' || value.length === 0 || value.length > 512)
    return { error: 'password_hash must be a non-empty string of at most 512 characters, or a Keycloak credential' };
  if (value.startsWith('scrypt$'))
    return /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]{44}$/.test(value) ? { hash: value } : { error: 'malformed scrypt hash' };
  if (value.startsWith('$2')) return isBcryptHash(value) ? { hash: value } : { error: 'malformed bcrypt hash, or a cost above 14' };
  if (value.startsWith('pbkdf2-sha256$')) return pbkdf2(value);
  if (value.startsWith('pbkdf2_sha256$')) return fromDjango(value);
  if (value.startsWith('$pbkdf2-sha256$')) return fromPasslib(value);
  return fromAspNetIdentity(value);
}

function pbkdf2(encoded: string): { hash: string } | { error: string } {
  return parsePbkdf2Sha256(encoded) ? { hash: encoded } : { error: 'malformed PBKDF2-SHA256 hash, or iterations outside 1000–2000000' };
}

function canonical(iterations: number | string, salt: Buffer, hash: Buffer): { hash: string } | { error: string } {
  return pbkdf2(`pbkdf2-sha256$${iterations}$${salt.toString('base64')}$${hash.toString('base64')}`);
}

// Django: the salt is text and is used as its UTF-8 bytes.
function fromDjango(value: string): { hash: string } | { error: string } {
  const [, iterations, salt, hash] = value.split('$');
  if (value.split('$').length !== 4 || !salt) return { error: 'malformed Django pbkdf2_sha256 hash' };
  return canonical(iterations, Buffer.from(salt, 'utf8'), Buffer.from(hash, 'base64'));
}

// passlib's "adapted base64": '.' for '+', no padding.
function fromPasslib(value: string): { hash: string } | { error: string } {
  const parts = value.split('$');
  if (parts.length !== 5) return { error: 'malformed passlib pbkdf2-sha256 hash' };
  const ab64 = (text: string) => Buffer.from(text.replace(/\./g, '+'), 'base64');
  return canonical(parts[2], ab64(parts[3]), ab64(parts[4]));
}

// ASP.NET Core Identity v3: 0x01, PRF, iteration count, salt length (big-endian uint32), salt, subkey.
function fromAspNetIdentity(value: string): { hash: string } | { error: string } {
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? Buffer.from(value, 'base64') : Buffer.alloc(0);
  if (bytes.length < 13 || bytes[0] !== 0x01) return { error: 'unrecognised password hash format' };
  if (bytes.readUInt32BE(1) !== 1) return { error: 'ASP.NET Identity hash with a PRF other than HMAC-SHA256' };
  const saltLength = bytes.readUInt32BE(9);
  if (saltLength < 8 || 13 + saltLength >= bytes.length) return { error: 'malformed ASP.NET Identity hash' };
  return canonical(bytes.readUInt32BE(5), bytes.subarray(13, 13 + saltLength), bytes.subarray(13 + saltLength));
}

function fromKeycloak(credential: Record<string, unknown>): { hash: string } | { error: string } {
  const parse = (member: unknown): Record<string, unknown> | undefined => {
    try {
      const parsed: unknown = typeof member === 'string' ? JSON.parse(member) : member;
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const secret = parse(credential.secretData);
  const data = parse(credential.credentialData);
  if (!secret || !data || typeof secret.value !== 'string' || typeof secret.salt !== 'string') return { error: 'malformed Keycloak credential' };
  if (data.algorithm !== 'pbkdf2-sha256') return { error: `Keycloak credential algorithm ${String(data.algorithm).slice(0, 40)} is not supported` };
  if (!Number.isSafeInteger(data.hashIterations)) return { error: 'malformed Keycloak credential' };
  return canonical(data.hashIterations as number, Buffer.from(secret.salt, 'base64'), Buffer.from(secret.value, 'base64'));
}
