import { parseCookie, stringifySetCookie } from 'cookie';

export const SESSION_COOKIE = 'tollgate.session';

/** A cookie's value from a Cookie header; undefined when absent. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header || header.length > 8192) return undefined;
  return parseCookie(header)[name];
}

/**
 * A Set-Cookie value for the browser-sign-in cookies: HttpOnly, SameSite=Lax (the code flow's
 * redirects are top-level GETs), Secure when the issuer is https (docs/browser-sign-in.md).
 */
export function cookieHeader(name: string, value: string, options: { secure: boolean; maxAgeSeconds?: number }): string {
  return stringifySetCookie({ name, value, httpOnly: true, sameSite: 'lax', secure: options.secure, path: '/', maxAge: options.maxAgeSeconds });
}

export function clearedCookieHeader(name: string, secure: boolean): string {
  return stringifySetCookie({ name, value: '', httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0, expires: new Date(0) });
}
