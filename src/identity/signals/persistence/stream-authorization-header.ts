import { isSealed, openSealed, type KeyEncryptionKeyring } from '../../../platform/key-encryption/private-key-sealing';

/**
 * A receiver's `authorization_header` (docs/signals.md#the-stream-api-ssf-10-81) at rest: a credential Tollgate must
 * send back, so it is sealed under the key-encryption key like the signing keys, bound to its stream.
 */
export function sealAuthorizationHeader(header: string | undefined, streamId: string, keyring: KeyEncryptionKeyring): string | null {
  return header === undefined ? null : keyring.current.seal(header, associatedData(streamId));
}

/** The stored header opened; a row written before sealing holds the header itself. Throws an UnsealError. */
export function openAuthorizationHeader(stored: string | null, streamId: string, keyring: KeyEncryptionKeyring): string | undefined {
  if (stored === null) return undefined;
  if (!isSealed(stored)) return stored;
  return openSealed(stored, keyring, associatedData(streamId), `the authorization_header of stream ${streamId}`).plaintext;
}

function associatedData(streamId: string): string {
  return `tollgate ssf stream ${streamId} authorization_header`;
}
