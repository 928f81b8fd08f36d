import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { createHmac } from 'node:crypto';
import { KEY_ENCRYPTION_KEYRING } from '../../platform/key-encryption/key-encryption-key';
import type { KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import type { Passkey } from './passkey';
import { PasskeyRepository } from './passkey.repository';
import { RELYING_PARTY_NAME, relyingPartyOf, type RelyingParty } from './relying-party';
import { CHALLENGE_LIFETIME_SECONDS, WebAuthnChallenges, type ChallengeBinding } from './webauthn-challenges';

/** A user registers at most this many passkeys: every stored input is bounded. */
export const MAX_PASSKEYS_PER_USER = 20;
export const MAX_PASSKEY_NAME_LENGTH = 64;
// COSE algorithms offered (WebAuthn §5.4.3, RFC 9053): EdDSA, ES256, RS256.
const ALGORITHMS = [-8, -7, -257];

/** Who a passkey is created for (WebAuthn §5.4.3 user entity). */
export interface PasskeyOwner {
  readonly subject: string;
  readonly username: string;
  readonly displayName: string;
}

/**
 * The WebAuthn ceremonies (docs/passkeys.md) through @simplewebauthn/server: options for the
 * browser, and verification of what it sends back. Discoverable credentials (resident keys) with
 * user verification required, the issuer's host as RP ID, no attestation. A response that fails any
 * check is refused without saying which (undefined), and logged at debug level.
 */
@Injectable()
export class PasskeyCeremonies {
  readonly relyingParty: RelyingParty;
  private readonly log = new Logger(PasskeyCeremonies.name);
  private readonly userHandleKey: Buffer;

  constructor(
    private readonly passkeys: PasskeyRepository,
    private readonly challenges: WebAuthnChallenges,
    @Inject(issuerConfig.KEY) config: ConfigType<typeof issuerConfig>,
    @Inject(KEY_ENCRYPTION_KEYRING) keyring: Pick<KeyEncryptionKeyring, 'current'>,
  ) {
    this.relyingParty = relyingPartyOf(config.issuer);
    this.userHandleKey = keyring.current.derive('webauthn user handle v1');
  }

  /**
   * WebAuthn §14.6.1: the user handle reveals nothing of the user. The one of the user's passkeys,
   * else an HMAC of the `sub` (the browser does not return it at registration, so it must be computable).
   */
  private userHandleOf(subject: string, existing: readonly Passkey[]): string {
    return existing[0]?.userHandle ?? createHmac('sha256', this.userHandleKey).update(subject).digest('base64url');
  }

  async registrationOptions(owner: PasskeyOwner, binding: ChallengeBinding): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.passkeys.listOf(owner.subject);
    return generateRegistrationOptions({
      rpName: RELYING_PARTY_NAME,
      rpID: this.relyingParty.id,
      userName: owner.username,
      userDisplayName: owner.displayName,
      userID: Buffer.from(this.userHandleOf(owner.subject, existing), 'base64url'),
      challenge: this.challenges.issue(binding),
      timeout: CHALLENGE_LIFETIME_SECONDS * 1000,
      attestationType: 'none',
      // WebAuthn §6.3.2: the browser refuses to create a second passkey on an authenticator that has one already.
      excludeCredentials: existing.map(({ credentialId, transports }) => ({ id: credentialId, transports: [...transports] })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
  }

  /** Verifies a `navigator.credentials.create()` response (JSON) and stores the passkey; undefined when refused. */
  async register(owner: PasskeyOwner, credential: string, name: string, binding: ChallengeBinding): Promise<Passkey | undefined> {
    const response = parseCredential<RegistrationResponseJSON>(credential);
    const existing = await this.passkeys.listOf(owner.subject);
    if (!response || existing.length >= MAX_PASSKEYS_PER_USER) return undefined;
    const verification = await this.verify('registration', () =>
      verifyRegistrationResponse({
        response,
        expectedChallenge: (challenge) => this.challenges.use(challenge, binding),
        expectedOrigin: this.relyingParty.origin,
        expectedRPID: this.relyingParty.id,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      }),
    );
    if (!verification?.verified) return undefined;
    const { credential: created, credentialBackedUp } = verification.registrationInfo;
    const passkey: Passkey = {
      credentialId: created.id,
      subject: owner.subject,
      userHandle: this.userHandleOf(owner.subject, existing),
      publicKey: created.publicKey,
      signCount: created.counter,
      transports: created.transports ?? [],
      ...(response.authenticatorAttachment ? { attachment: response.authenticatorAttachment } : {}),
      backedUp: credentialBackedUp,
      name: passkeyName(name),
      createdAt: new Date(),
    };
    return (await this.passkeys.add(passkey)) ? passkey : undefined;
  }

  /** Options for `navigator.credentials.get()`: no credential named, so the browser offers the user's discoverable passkeys. */
  authenticationOptions(binding: ChallengeBinding): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return generateAuthenticationOptions({
      rpID: this.relyingParty.id,
      challenge: this.challenges.issue(binding),
      timeout: CHALLENGE_LIFETIME_SECONDS * 1000,
      userVerification: 'required',
    });
  }

  /** Verifies a `navigator.credentials.get()` response (JSON): the passkey signed in with, or undefined. */
  async authenticate(credential: string, binding: ChallengeBinding): Promise<Passkey | undefined> {
    const response = parseCredential<AuthenticationResponseJSON>(credential);
    const passkey = response && (await this.passkeys.find(response.id));
    if (!response || !passkey) return undefined;
    // WebAuthn §7.2 step 6: a user handle, when returned, is the passkey's owner's.
    if (response.response.userHandle !== undefined && response.response.userHandle !== passkey.userHandle) return undefined;
    const verification = await this.verify('authentication', () =>
      verifyAuthenticationResponse({
        response,
        expectedChallenge: (challenge) => this.challenges.use(challenge, binding),
        expectedOrigin: this.relyingParty.origin,
        expectedRPID: this.relyingParty.id,
        credential: { id: passkey.credentialId, publicKey: passkey.publicKey, counter: passkey.signCount, transports: [...passkey.transports] },
        requireUserVerification: true,
      }),
    );
    if (!verification?.verified) return undefined;
    const { newCounter, credentialBackedUp } = verification.authenticationInfo;
    await this.passkeys.recordUse(passkey.credentialId, newCounter, credentialBackedUp, new Date());
    return passkey;
  }

  private async verify<T>(ceremony: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      this.log.debug(`passkey ${ceremony} refused: ${(error as Error).message}`);
      return undefined;
    }
  }
}

/** A credential posted by the page's script, as JSON: an object with an id, or undefined. */
function parseCredential<T extends { id: string; response: object }>(json: string): T | undefined {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null) return undefined;
    const { id, response } = value as Record<string, unknown>;
    return typeof id === 'string' && id.length > 0 && id.length <= 1366 && typeof response === 'object' && response !== null ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}

/** The user's name for a passkey, bounded; a dated default when blank. */
export function passkeyName(typed: string): string {
  // Unicode control characters (Cc) are dropped: a name is shown on a page and in the users command.
  const name = typed
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, MAX_PASSKEY_NAME_LENGTH);
  return name.length > 0 ? name : `Passkey added ${new Date().toISOString().slice(0, 10)}`;
}
