import { randomBytes } from 'node:crypto';
import { KeyEncryptionKey, KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';
import { WebAuthnChallenges } from './webauthn-challenges';

const keyring = new KeyEncryptionKeyring(new KeyEncryptionKey(randomBytes(32)));

function challenges(): WebAuthnChallenges {
  const used = new Set<string>();
  return new WebAuthnChallenges(keyring, {
    firstUse: async (space, id) => !used.has(`${space}:${id}`) && used.add(`${space}:${id}`) !== undefined,
  });
}

const session = { kind: 'session', handle: 'a'.repeat(43) } as const;

describe('WebAuthnChallenges', () => {
  it('refuses a challenge of another browser, of a pre-session, altered, expired or malformed', async () => {
    const service = challenges();
    const now = Date.now();
    const challenge = Buffer.from(service.issue(session, now)).toString('base64url');
    expect(await service.use(challenge, { kind: 'session', handle: 'b'.repeat(43) }, now)).toBe(false);
    expect(await service.use(challenge, { kind: 'pre-session', handle: session.handle }, now)).toBe(false);
    const altered = Buffer.from(challenge, 'base64url');
    altered[0] ^= 1;
    expect(await service.use(altered.toString('base64url'), session, now)).toBe(false);
    expect(await service.use(challenge, session, now + 301_000)).toBe(false);
    expect(await service.use('', session, now)).toBe(false);
    expect(await service.use(`${challenge}A`, session, now)).toBe(false);
  });

  it('accepts a challenge once, for the browser it was issued to, within five minutes', async () => {
    const service = challenges();
    const now = Date.now();
    const challenge = Buffer.from(service.issue(session, now)).toString('base64url');
    expect(await service.use(challenge, session, now + 299_000)).toBe(true);
    expect(await service.use(challenge, session, now + 299_000)).toBe(false);
  });
});
