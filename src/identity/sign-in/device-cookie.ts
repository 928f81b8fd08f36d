import { parseCookie, stringifySetCookie } from 'cookie';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_COOKIE = 'tollgate.device';
/** https: the `__Host-` prefix (RFC 6265bis §4.1.3.2) keeps a sibling subdomain from planting one. */
export const SECURE_DEVICE_COOKIE = '__Host-tollgate.device';

const VERSION = 'd1';
const MAX_USERNAME_LENGTH = 1024;
const FORMAT = /^d1\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * Device cookies (OWASP "Slow down online guessing attacks with device cookies", docs/throttling.md):
 * after a successful browser sign-in, the browser gets `d1.<device id>.<expiry>.<mac>`, an HMAC-SHA256
 * of those and of the username. It names no user in clear, and is valid only for the username it was
 * issued to; sign-ins that carry it are counted for that device alone. HttpOnly, SameSite=Lax, Path=/,
 * and Secure with the `__Host-` name when the issuer is https.
 */
export class DeviceCookies {
  readonly name: string;

  /**
   * @param keys HMAC keys, the first signs; the others (from earlier key-encryption keys) still verify.
   */
  constructor(
    private readonly keys: readonly Buffer[],
    readonly lifetimeSeconds: number,
    private readonly secure: boolean,
    private readonly now: () => number = Date.now,
  ) {
    if (keys.length === 0) throw new Error('device cookies need a key');
    this.name = secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE;
  }

  get enabled(): boolean {
    return this.lifetimeSeconds > 0;
  }

  /** The Set-Cookie header of a new device cookie for `username`; none when device cookies are off. */
  setCookie(username: string): string[] {
    if (!this.enabled) return [];
    return [
      stringifySetCookie({
        name: this.name,
        value: this.issue(username),
        httpOnly: true,
        sameSite: 'lax',
        secure: this.secure,
        path: '/',
        maxAge: this.lifetimeSeconds,
      }),
    ];
  }

  /** The device id of the browser's device cookie (from its Cookie header) when it is valid for `username`. */
  deviceOf(cookieHeader: string | undefined, username: string): string | undefined {
    return cookieHeader ? this.verify(parseCookie(cookieHeader)[this.name], username) : undefined;
  }

  /** A new cookie value for this username, with a fresh random device id. */
  issue(username: string): string {
    const deviceId = randomBytes(16).toString('base64url');
    const expires = Math.floor(this.now() / 1000) + this.lifetimeSeconds;
    return `${VERSION}.${deviceId}.${expires}.${mac(this.keys[0], deviceId, expires, username)}`;
  }

  /** The device id of `value` when it is a valid, unexpired cookie issued for `username`; undefined otherwise. */
  verify(value: string | undefined, username: string): string | undefined {
    if (!this.enabled || value === undefined || username.length > MAX_USERNAME_LENGTH) return undefined;
    const parts = FORMAT.exec(value);
    if (!parts) return undefined;
    const [, deviceId, expiresText, presented] = parts;
    const expires = Number(expiresText);
    if (expires * 1000 <= this.now()) return undefined;
    const presentedBytes = Buffer.from(presented, 'base64url');
    const matches = this.keys.some((key) => timingSafeEqual(Buffer.from(mac(key, deviceId, expires, username), 'base64url'), presentedBytes));
    return matches ? deviceId : undefined;
  }
}

function mac(key: Buffer, deviceId: string, expires: number, username: string): string {
  return createHmac('sha256', key).update(`${VERSION}|${deviceId}|${expires}|${username}`).digest('base64url');
}
