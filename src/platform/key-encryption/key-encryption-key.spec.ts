import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveDevelopmentKey, KEY_ENCRYPTION_KEY_FILE, resolveKeyEncryptionKeyring } from './key-encryption-key';
import { KeyEncryptionKey } from './private-key-sealing';

const POSTGRES = 'postgresql://tollgate:secret@db.internal:5432/tollgate';
const idOf = (bytes: Buffer) => new KeyEncryptionKey(bytes).id;

describe('resolveKeyEncryptionKeyring', () => {
  let dataDir: string;
  let warnings: string[];
  const warn = (message: string) => warnings.push(message);
  const settings = (overrides: object = {}) => ({ keyEncryptionKey: undefined, previousKeyEncryptionKeys: [], databaseUrl: undefined, dataDir, ...overrides });

  beforeEach(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'tollgate-kek-')), 'data');
    warnings = [];
  });
  afterEach(() => rm(join(dataDir, '..'), { recursive: true, force: true }));

  it('refuses a key file that does not hold 32 bytes', async () => {
    await resolveKeyEncryptionKeyring(settings(), warn);
    await writeFile(join(dataDir, KEY_ENCRYPTION_KEY_FILE), 'c2hvcnQ=\n');
    await expect(resolveKeyEncryptionKeyring(settings(), warn)).rejects.toThrow('does not hold a 32-byte base64 key-encryption key');
  });

  it('uses KEY_ENCRYPTION_KEY when set, silently, keeping the earlier keys to open old rows', async () => {
    const current = randomBytes(32);
    const previous = randomBytes(32);
    const ring = await resolveKeyEncryptionKeyring(settings({ keyEncryptionKey: current, previousKeyEncryptionKeys: [previous], databaseUrl: POSTGRES }), warn);
    expect(ring.current.id).toBe(idOf(current));
    expect(ring.previous.map((key) => key.id)).toEqual([idOf(previous), idOf(deriveDevelopmentKey(POSTGRES))]);
    expect(warnings).toEqual([]);
  });

  it('on the embedded default generates a key into DATA_DIR with mode 0600, loudly, and reuses it', async () => {
    const first = await resolveKeyEncryptionKeyring(settings(), warn);
    const file = join(dataDir, KEY_ENCRYPTION_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(idOf(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64'))).toBe(first.current.id);
    expect(warnings).toEqual([expect.stringContaining(`KEY_ENCRYPTION_KEY is not set: generated one into ${file} (mode 0600)`)]);

    const second = await resolveKeyEncryptionKeyring(settings(), warn);
    expect(second.current.id).toBe(first.current.id);
    expect(warnings).toHaveLength(1);
  });

  it('keeps an in-memory embedded database’s key in memory', async () => {
    const ring = await resolveKeyEncryptionKeyring(settings({ dataDir: 'memory://' }), warn);
    expect(ring.current.id).toHaveLength(8);
  });

  it('with DATABASE_URL outside production derives the key from the URL, so instances agree, and warns', async () => {
    const one = await resolveKeyEncryptionKeyring(settings({ databaseUrl: POSTGRES }), warn);
    const two = await resolveKeyEncryptionKeyring(settings({ databaseUrl: POSTGRES }), warn);
    expect(one.current.id).toBe(two.current.id);
    expect(one.current.id).toBe(idOf(deriveDevelopmentKey(POSTGRES)));
    expect(deriveDevelopmentKey(`${POSTGRES}x`).equals(deriveDevelopmentKey(POSTGRES))).toBe(false);
    expect(warnings[0]).toMatch(/^KEY_ENCRYPTION_KEY is not set: signing keys are sealed under a key derived from DATABASE_URL/);
  });
});
