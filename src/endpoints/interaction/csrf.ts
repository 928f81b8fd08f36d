import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { KEY_ENCRYPTION_KEYRING } from '../../platform/key-encryption/key-encryption-key';
import type { KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';
import { isHandle } from '../../protocol/opaque-handle';

export const CSRF_FIELD = 'csrf_token';

/**
 * What a form's CSRF token is bound to: the browser's session (consent, logout), or before sign-in
 * its pre-session (login). The handle is the cookie's value; undefined when the browser has none.
 */
export interface CsrfBinding {
  readonly kind: 'session' | 'pre-session';
  readonly handle: string | undefined;
}

/**
 * CSRF tokens of the sign-in forms (docs/browser-sign-in.md#pages): an HMAC-SHA256, under a key
 * every instance derives from the key-encryption key, of the session or pre-session handle the
 * browser holds in an HttpOnly cookie. Another site can make the browser POST but cannot read that
 * cookie, so it cannot compute the token; a token planted with a cookie of the attacker's choosing
 * does not verify, and a new session (sign-in) makes the tokens before it worthless.
 */
@Injectable()
export class CsrfTokens {
  private readonly key: Buffer;

  constructor(@Inject(KEY_ENCRYPTION_KEYRING) keyring: Pick<KeyEncryptionKeyring, 'current'>) {
    this.key = keyring.current.derive('csrf token v1');
  }

  /** The token of a form bound to `handle`: 43 base64url characters, like a handle. */
  tokenFor(kind: CsrfBinding['kind'], handle: string): string {
    return createHmac('sha256', this.key).update(`${kind}\0${handle}`).digest('base64url');
  }

  /** True only for the token of the binding's handle, compared in constant time. */
  isValid(binding: CsrfBinding, submitted: unknown): boolean {
    if (binding.handle === undefined || typeof submitted !== 'string' || !isHandle(submitted)) return false;
    return timingSafeEqual(Buffer.from(this.tokenFor(binding.kind, binding.handle)), Buffer.from(submitted));
  }
}
