import type { Passkey } from './passkey';

/** Where passkeys are stored, with the user's subject id; also the DI token. */
export abstract class PasskeyRepository {
  /** The user's passkeys, oldest first. */
  abstract listOf(subject: string): Promise<Passkey[]>;
  abstract countOf(subject: string): Promise<number>;
  abstract find(credentialId: string): Promise<Passkey | undefined>;
  /** False when the credential id is registered already (to this user or another). */
  abstract add(passkey: Passkey): Promise<boolean>;
  /** Records a sign-in with it: the new signature counter and backup state. */
  abstract recordUse(credentialId: string, signCount: number, backedUp: boolean, at: Date): Promise<void>;
  /** False when the user has no such passkey. */
  abstract rename(subject: string, credentialId: string, name: string): Promise<boolean>;
  /** The passkey removed, or undefined when the user has no such passkey. */
  abstract remove(subject: string, credentialId: string): Promise<Passkey | undefined>;
  /** Removes all of a user's passkeys (the operator's command); returns them. */
  abstract removeAllOf(subject: string): Promise<Passkey[]>;
}
