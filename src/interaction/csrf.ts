import { timingSafeEqual } from 'node:crypto';
import { generateHandle, isHandle } from '../oauth/opaque-handle';
import { readCookie } from '../sessions/session-cookie';

export const CSRF_COOKIE = 'tollgate.csrf';
export const CSRF_FIELD = 'csrf_token';

/**
 * Double-submit CSRF token: a random value in an HttpOnly cookie and in each form; a POST counts only
 * when both match. Another site can make a browser POST but can neither read nor set the cookie.
 */
export function csrfToken(cookieHeader: string | undefined): { token: string; fresh: boolean } {
  const existing = readCookie(cookieHeader, CSRF_COOKIE);
  return existing !== undefined && isHandle(existing) ? { token: existing, fresh: false } : { token: generateHandle(), fresh: true };
}

export function isCsrfTokenValid(cookieHeader: string | undefined, submitted: unknown): boolean {
  const expected = readCookie(cookieHeader, CSRF_COOKIE);
  if (expected === undefined || typeof submitted !== 'string' || !isHandle(expected) || !isHandle(submitted)) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(submitted));
}
