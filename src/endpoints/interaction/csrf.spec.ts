import { randomBytes } from 'node:crypto';
import { KeyEncryptionKey, KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';
import { generateHandle } from '../../protocol/opaque-handle';
import { CsrfTokens } from './csrf';

const keyBytes = randomBytes(32);
const tokens = new CsrfTokens(new KeyEncryptionKeyring(new KeyEncryptionKey(keyBytes)));
const handle = generateHandle();

describe('CsrfTokens.isValid', () => {
  it('refuses without a handle, without a token, with a repeated or malformed token', () => {
    const token = tokens.tokenFor('pre-session', handle);
    expect(tokens.isValid({ kind: 'pre-session', handle: undefined }, token)).toBe(false);
    expect(tokens.isValid({ kind: 'pre-session', handle }, undefined)).toBe(false);
    expect(tokens.isValid({ kind: 'pre-session', handle }, [token, token])).toBe(false);
    expect(tokens.isValid({ kind: 'pre-session', handle }, `${token}=`)).toBe(false);
  });

  it('refuses the handle itself, a token of another handle, of the other kind, or under another key', () => {
    expect(tokens.isValid({ kind: 'pre-session', handle }, handle)).toBe(false);
    expect(tokens.isValid({ kind: 'pre-session', handle }, tokens.tokenFor('pre-session', generateHandle()))).toBe(false);
    expect(tokens.isValid({ kind: 'session', handle }, tokens.tokenFor('pre-session', handle))).toBe(false);
    const otherKey = new CsrfTokens(new KeyEncryptionKeyring(new KeyEncryptionKey(randomBytes(32))));
    expect(tokens.isValid({ kind: 'session', handle }, otherKey.tokenFor('session', handle))).toBe(false);
  });

  it('accepts the token of the handle, from any instance with the same key-encryption key', () => {
    const otherInstance = new CsrfTokens(new KeyEncryptionKeyring(new KeyEncryptionKey(Buffer.from(keyBytes))));
    const token = otherInstance.tokenFor('session', handle);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.isValid({ kind: 'session', handle }, token)).toBe(true);
  });
});
