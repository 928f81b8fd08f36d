import { KeyEncryptionKey, KeyEncryptionKeyring, UnsealError } from '../../../platform/key-encryption/private-key-sealing';
import { openAuthorizationHeader, sealAuthorizationHeader } from './stream-authorization-header';

describe('a stream authorization_header at rest', () => {
  const keyring = new KeyEncryptionKeyring(new KeyEncryptionKey(Buffer.alloc(32, 1)));

  it('is sealed, and opens for its own stream', () => {
    const stored = sealAuthorizationHeader('Bearer receiver-secret', 'stream-1', keyring);
    expect(stored).toMatch(/^sealed:v1:/);
    expect(stored).not.toContain('receiver-secret');
    expect(openAuthorizationHeader(stored, 'stream-1', keyring)).toBe('Bearer receiver-secret');
  });

  it('does not open for another stream, nor under another key-encryption key', () => {
    const stored = sealAuthorizationHeader('Bearer receiver-secret', 'stream-1', keyring);
    expect(() => openAuthorizationHeader(stored, 'stream-2', keyring)).toThrow(UnsealError);
    const other = new KeyEncryptionKeyring(new KeyEncryptionKey(Buffer.alloc(32, 2)));
    expect(() => openAuthorizationHeader(stored, 'stream-1', other)).toThrow(/was sealed under key-encryption key/);
  });

  it('reads a header stored before sealing as it is, and none as none', () => {
    expect(openAuthorizationHeader('Bearer legacy', 'stream-1', keyring)).toBe('Bearer legacy');
    expect(openAuthorizationHeader(null, 'stream-1', keyring)).toBeUndefined();
    expect(sealAuthorizationHeader(undefined, 'stream-1', keyring)).toBeNull();
  });
});
