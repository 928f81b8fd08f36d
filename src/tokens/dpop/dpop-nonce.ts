import { createHmac, timingSafeEqual } from 'node:crypto';

// A nonce is good for the period it was issued in and the next one: one to two minutes.
const PERIOD_MS = 60_000;
const NONCE = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * RFC 9449 §8 server nonces without shared state: the period's number and an HMAC-SHA256 of it
 * under a key every instance derives from the key-encryption key, so any instance accepts another's.
 */
export class DpopNonces {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  /** The nonce to hand out now (`DPoP-Nonce`). */
  current(): string {
    return this.nonceFor(Math.floor(this.now() / PERIOD_MS));
  }

  /** True for a nonce this service issued in this period or the one before. */
  isValid(nonce: unknown): boolean {
    if (typeof nonce !== 'string') return false;
    const match = NONCE.exec(nonce);
    if (!match) return false;
    const period = parseInt(match[1], 36);
    const current = Math.floor(this.now() / PERIOD_MS);
    if (period !== current && period !== current - 1) return false;
    return timingSafeEqual(Buffer.from(this.nonceFor(period)), Buffer.from(nonce));
  }

  private nonceFor(period: number): string {
    const label = period.toString(36);
    return `${label}.${createHmac('sha256', this.key).update(`dpop nonce\0${label}`).digest('base64url')}`;
  }
}
