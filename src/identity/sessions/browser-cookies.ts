import { Inject, Injectable } from '@nestjs/common';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { isHandle } from '../../protocol/opaque-handle';

/**
 * The cookies of browser sign-in (docs/browser-sign-in.md#cookies): the session's handle, and the
 * pre-session's, which binds the CSRF token of the login form before there is a session. Both are
 * HttpOnly, SameSite=Lax (the code flow's redirects are top-level GETs) and Path=/. When the issuer
 * is https they are Secure and named `__Host-…`: a browser then accepts them only from this origin
 * over https, so neither a sibling subdomain nor a plain-http answer can plant or overwrite them
 * (RFC 6265bis §4.1.3.2).
 */
@Injectable()
export class BrowserCookies {
  readonly secure: boolean;
  readonly sessionName: string;
  readonly preSessionName: string;

  constructor(@Inject(issuerConfig.KEY) config: ConfigType<typeof issuerConfig>) {
    this.secure = config.issuer.startsWith('https:');
    const prefix = this.secure ? '__Host-' : '';
    this.sessionName = `${prefix}tollgate.session`;
    this.preSessionName = `${prefix}tollgate.presession`;
  }

  /** The session handle the browser sent; undefined when absent or malformed. */
  session(cookieHeader: string | undefined): string | undefined {
    return readHandle(cookieHeader, this.sessionName);
  }

  preSession(cookieHeader: string | undefined): string | undefined {
    return readHandle(cookieHeader, this.preSessionName);
  }

  setSession(handle: string, maxAgeSeconds: number): string {
    return this.setCookie(this.sessionName, handle, maxAgeSeconds);
  }

  /** Lives as long as the browser session: it only carries the browser to its sign-in. */
  setPreSession(handle: string): string {
    return this.setCookie(this.preSessionName, handle);
  }

  clearSession(): string {
    return this.clear(this.sessionName);
  }

  clearPreSession(): string {
    return this.clear(this.preSessionName);
  }

  private setCookie(name: string, value: string, maxAge?: number): string {
    return stringifySetCookie({ name, value, httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/', maxAge });
  }

  private clear(name: string): string {
    return stringifySetCookie({ name, value: '', httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/', maxAge: 0, expires: new Date(0) });
  }
}

/**
 * A handle from a Cookie header. The whole header is read, whatever its size: Node bounds request
 * headers (16 KiB, answered 431 beyond), and other applications' cookies on this host must not hide ours.
 */
function readHandle(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const value = parseCookie(header)[name];
  return value !== undefined && isHandle(value) ? value : undefined;
}
