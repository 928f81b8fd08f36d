import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { KEY_ENCRYPTION_KEYRING } from '../../platform/key-encryption/key-encryption-key';
import type { KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';
import { AssertionReplayGuard } from '../client-auth/assertion-replay.guard';

/** WebAuthn §13.4.3: long enough for the user to find their authenticator, short enough to be useless later. */
export const CHALLENGE_LIFETIME_SECONDS = 300;
const NONCE_BYTES = 16;
const MAC_BYTES = 16;
// The replay record's key space, beside client assertions and DPoP proofs.
const REPLAY_SPACE = 'webauthn';

/** What a challenge is bound to: the browser's session, or before sign-in its pre-session (the cookie's handle). */
export interface ChallengeBinding {
  readonly kind: 'session' | 'pre-session';
  readonly handle: string;
}

/**
 * WebAuthn challenges (§13.4.3) that need no storage until used: 16 random bytes, an expiry and an
 * HMAC of both and the browser's session or pre-session handle, under a key every instance derives
 * from the key-encryption key. A challenge passes only for the browser it was shown to, before it
 * expires, and once (the replay record that client assertions and DPoP proofs use).
 */
@Injectable()
export class WebAuthnChallenges {
  private readonly key: Buffer;

  constructor(
    @Inject(KEY_ENCRYPTION_KEYRING) keyring: Pick<KeyEncryptionKeyring, 'current'>,
    @Inject(AssertionReplayGuard) private readonly replays: Pick<AssertionReplayGuard, 'firstUse'>,
  ) {
    this.key = keyring.current.derive('webauthn challenge v1');
  }

  issue(binding: ChallengeBinding, now = Date.now()): Uint8Array<ArrayBuffer> {
    const nonce = randomBytes(NONCE_BYTES);
    const expiry = Buffer.alloc(4);
    expiry.writeUInt32BE(Math.floor(now / 1000) + CHALLENGE_LIFETIME_SECONDS);
    return new Uint8Array(Buffer.concat([nonce, expiry, this.mac(binding, nonce, expiry)]));
  }

  /** The challenge of clientDataJSON (base64url): true once, for the binding it was issued to, before it expires. */
  async use(challenge: string, binding: ChallengeBinding, now = Date.now()): Promise<boolean> {
    const bytes = Buffer.from(challenge, 'base64url');
    if (bytes.length !== NONCE_BYTES + 4 + MAC_BYTES || bytes.toString('base64url') !== challenge) return false;
    const nonce = bytes.subarray(0, NONCE_BYTES);
    const expiry = bytes.subarray(NONCE_BYTES, NONCE_BYTES + 4);
    if (!timingSafeEqual(this.mac(binding, nonce, expiry), bytes.subarray(NONCE_BYTES + 4))) return false;
    const expiresAt = expiry.readUInt32BE() * 1000;
    if (expiresAt <= now) return false;
    return this.replays.firstUse(REPLAY_SPACE, nonce.toString('base64url'), new Date(expiresAt));
  }

  private mac(binding: ChallengeBinding, nonce: Buffer, expiry: Buffer): Buffer {
    return createHmac('sha256', this.key).update(`${binding.kind}\0${binding.handle}\0`).update(nonce).update(expiry).digest().subarray(0, MAC_BYTES);
  }
}
