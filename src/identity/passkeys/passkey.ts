/** A user's WebAuthn credential (docs/passkeys.md): its public key only; the private key never leaves the authenticator. */
export interface Passkey {
  /** The credential id, base64url (WebAuthn §6.1 credentialId). */
  readonly credentialId: string;
  readonly subject: string;
  /** The WebAuthn user handle (`user.id`), base64url: random, the same for all of a user's passkeys, never the `sub`. */
  readonly userHandle: string;
  /** COSE public key (RFC 9052) as the authenticator gave it. */
  readonly publicKey: Uint8Array<ArrayBuffer>;
  /** WebAuthn §6.1.1 signature counter; 0 for authenticators that keep none. */
  readonly signCount: number;
  readonly transports: readonly string[];
  /** `platform` (built into the device) or `cross-platform` (a security key), when the browser said. */
  readonly attachment?: string;
  /** WebAuthn §6.1.3 backup state: a synced passkey. */
  readonly backedUp: boolean;
  /** The user's name for it, shown on the account page. */
  readonly name: string;
  readonly createdAt: Date;
  readonly lastUsedAt?: Date;
}

/** OpenID Shared Signals CAEP `credential-change` `credential_type` of a passkey (docs/passkeys.md). */
export function credentialTypeOf(passkey: Pick<Passkey, 'attachment'>): 'fido2-platform' | 'fido2-roaming' {
  return passkey.attachment === 'platform' ? 'fido2-platform' : 'fido2-roaming';
}
