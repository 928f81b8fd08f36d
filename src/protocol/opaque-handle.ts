import { createHash, randomBytes } from 'node:crypto';

/** A new opaque handle: 256 random bits, base64url (RFC 6749 §10.10 asks for at least 128). */
export function generateHandle(): string {
  return randomBytes(32).toString('base64url');
}

/** How a handle is stored: SHA-256, base64url. The handle itself never is. */
export function hashHandle(handle: string): string {
  return createHash('sha256').update(handle, 'utf8').digest('base64url');
}

const HANDLE = /^[A-Za-z0-9_-]{43}$/;

/** True for a string shaped like a handle this service issues. */
export function isHandle(value: string): boolean {
  return HANDLE.test(value);
}
