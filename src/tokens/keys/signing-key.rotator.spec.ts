import { RecordingAuditSink } from '../../platform/audit/recording-audit.sink';
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../platform/config/app.config';
import { signingKeysConfig } from '../../platform/config/config.slices';
import { KeyEncryptionKey, KeyEncryptionKeyring, openPrivateKey, sealPrivateKey } from '../../platform/key-encryption/private-key-sealing';
import { generateSigningKey, type GeneratedSigningKey, type StoredSigningKey } from './signing-key';
import { SigningKeyRepository, type KeyRotationSession, type KeySnapshot } from './signing-key.repository';
import { SigningKeyRotator } from './signing-key.rotator';

/** The table, with a clock the test moves; what PostgreSQL's now() would say. */
class InMemorySigningKeyRepository extends SigningKeyRepository implements KeyRotationSession {
  rows: (StoredSigningKey & { retired?: boolean })[] = [];
  now = new Date('2026-01-01T00:00:00Z');
  longestLifetime = 3600;

  async findPublished(): Promise<KeySnapshot> {
    return { keys: this.rows.filter((row) => !row.retired && (!row.retiresAt || row.retiresAt > this.now)), now: this.now };
  }
  async inRotationLock<T>(work: (session: KeyRotationSession) => Promise<T>): Promise<T> {
    return work(this);
  }
  async unretiredKeys(): Promise<KeySnapshot> {
    return { keys: this.rows.filter((row) => !row.retired), now: this.now };
  }
  async longestAccessTokenLifetime(): Promise<number> {
    return this.longestLifetime;
  }
  async insert(key: GeneratedSigningKey, sealedPrivateKey: string, createdAt: Date, activatesAt: Date): Promise<void> {
    this.rows.push({ kid: key.kid, algorithm: key.algorithm, privateKey: sealedPrivateKey, publicKeyPem: key.publicKeyPem, createdAt, activatesAt });
  }
  async scheduleRetirement(kid: string, retiresAt: Date): Promise<void> {
    this.update(kid, { retiresAt });
  }
  async retire(kids: readonly string[]): Promise<void> {
    for (const kid of kids) this.update(kid, { retired: true });
  }
  async reseal(kid: string, _previous: string, sealedPrivateKey: string, publicKeyPem: string): Promise<void> {
    this.update(kid, { privateKey: sealedPrivateKey, publicKeyPem });
  }
  private update(kid: string, change: object): void {
    this.rows = this.rows.map((row) => (row.kid === kid ? { ...row, ...change } : row));
  }
}

const DAY = 86_400_000;

describe('SigningKeyRotator', () => {
  const current = new KeyEncryptionKey(randomBytes(32));
  const previous = new KeyEncryptionKey(randomBytes(32));
  const keyring = new KeyEncryptionKeyring(current, [previous]);
  const config = signingKeysConfig(loadConfig({ CACHE_TTL_SECONDS: '0' }));
  let repository: InMemorySigningKeyRepository;
  let rotator: SigningKeyRotator;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    repository = new InMemorySigningKeyRepository();
    rotator = new SigningKeyRotator(repository, keyring, config, new RecordingAuditSink());
  });

  async function legacyRow(pemOrSealed: (key: GeneratedSigningKey) => string): Promise<StoredSigningKey> {
    const key = await generateSigningKey('RS256');
    const row = { kid: key.kid, algorithm: key.algorithm, privateKey: pemOrSealed(key), createdAt: repository.now, activatesAt: repository.now };
    repository.rows.push(row);
    return row;
  }

  describe('rotateIfDue', () => {
    it('leaves a key sealed under an unknown key-encryption key as it is', async () => {
      const stranger = new KeyEncryptionKeyring(new KeyEncryptionKey(randomBytes(32)));
      const row = await legacyRow((key) => sealPrivateKey(key.privateKeyPem, key.kid, stranger));
      const outcome = await rotator.rotateIfDue();
      expect(outcome.resealed).toEqual([]);
      expect(repository.rows.find((r) => r.kid === row.kid)?.privateKey).toBe(row.privateKey);
    });

    it('creates the first key sealed, with its public part, signing at once', async () => {
      const outcome = await rotator.rotateIfDue();
      expect(outcome).toEqual({ created: [{ kid: expect.any(String), algorithm: 'RS256', activatesAt: repository.now }], retired: [], resealed: [] });
      const [row] = repository.rows;
      expect(row.privateKey).toMatch(new RegExp(`^sealed:v1:${current.id}:`));
      expect(row.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
      expect(openPrivateKey(row.privateKey, row.kid, keyring).pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    });

    it('re-seals plaintext rows from before encryption and rows under a previous key-encryption key', async () => {
      const plaintext = await legacyRow((key) => key.privateKeyPem);
      const underPrevious = await legacyRow((key) => sealPrivateKey(key.privateKeyPem, key.kid, new KeyEncryptionKeyring(previous)));
      const outcome = await rotator.rotateIfDue();
      expect(outcome.resealed).toEqual([plaintext.kid, underPrevious.kid]);
      for (const row of repository.rows) {
        expect(row.privateKey).toMatch(new RegExp(`^sealed:v1:${current.id}:`));
        expect(row.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
      }
      expect(openPrivateKey(repository.rows[0].privateKey, plaintext.kid, keyring).pem).toBe(plaintext.privateKey);
      expect((await rotator.rotateIfDue()).resealed).toEqual([]);
    });

    it('does nothing more until the key is 76 days old, then creates its successor for day 90', async () => {
      const [first] = (await rotator.rotateIfDue()).created;
      repository.now = new Date(first.activatesAt.getTime() + 75 * DAY);
      expect(await rotator.rotateIfDue()).toEqual({ created: [], retired: [], resealed: [] });
      repository.now = new Date(first.activatesAt.getTime() + 76 * DAY);
      expect((await rotator.rotateIfDue()).created.map((key) => key.activatesAt)).toEqual([new Date(first.activatesAt.getTime() + 90 * DAY)]);
    });
  });

  describe('with SIGNING_ALG=ES256', () => {
    it('creates an ES256 key and an RS256 key for ID tokens, and renews both when forced', async () => {
      const es256 = new SigningKeyRotator(
        repository,
        keyring,
        signingKeysConfig(loadConfig({ CACHE_TTL_SECONDS: '0', SIGNING_ALG: 'ES256' })),
        new RecordingAuditSink(),
      );
      expect((await es256.rotateIfDue()).created.map((key) => key.algorithm)).toEqual(['ES256', 'RS256']);
      expect((await es256.rotateNow()).map((key) => key.algorithm)).toEqual(['ES256', 'RS256']);
      expect(repository.rows.map((row) => row.algorithm)).toEqual(['ES256', 'RS256', 'ES256', 'RS256']);
    });
  });

  describe('rotateNow', () => {
    it('creates a key published now that signs after the propagation time', async () => {
      await rotator.rotateIfDue();
      const [forced] = await rotator.rotateNow();
      expect(forced.activatesAt).toEqual(new Date(repository.now.getTime() + 14 * DAY));
      expect(repository.rows).toHaveLength(2);
    });

    it('with immediately, creates a key that signs at once; the old one is scheduled to retire, not retired', async () => {
      const [first] = (await rotator.rotateIfDue()).created;
      repository.now = new Date(repository.now.getTime() + 60_000);
      const [forced] = await rotator.rotateNow({ immediately: true });
      expect(forced.activatesAt).toEqual(repository.now);
      await rotator.rotateIfDue();
      expect(repository.rows.find((row) => row.kid === first.kid)).toMatchObject({ retiresAt: new Date(repository.now.getTime() + 14 * DAY) });
      expect((await repository.findPublished()).keys.map((key) => key.kid)).toEqual([first.kid, forced.kid]);
    });

    it('keeps a superseded key published for the longest access-token lifetime when that exceeds the retention time', async () => {
      repository.longestLifetime = 30 * 86_400;
      const [first] = (await rotator.rotateIfDue()).created;
      repository.now = new Date(repository.now.getTime() + 60_000);
      await rotator.rotateNow({ immediately: true });
      await rotator.rotateIfDue();
      // docs/endpoints.md#jwks: published until every token the key signed has expired (30 days + 60 s skew).
      expect(repository.rows.find((row) => row.kid === first.kid)).toMatchObject({ retiresAt: new Date(repository.now.getTime() + 30 * DAY + 60_000) });
    });
  });
});
