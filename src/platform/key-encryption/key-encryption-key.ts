import { hkdfSync, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ConfigType } from '../../platform/config/config-slice';
import type { keyEncryptionConfig } from '../../platform/config/config.slices';
import { KeyEncryptionKey, KeyEncryptionKeyring } from './private-key-sealing';

/** DI token for the `KeyEncryptionKeyring`. */
export const KEY_ENCRYPTION_KEYRING = Symbol('KEY_ENCRYPTION_KEYRING');

export const KEY_ENCRYPTION_KEY_FILE = 'key-encryption-key';

type Warn = (message: string) => void;
type KeyConfig = ConfigType<typeof keyEncryptionConfig>;

/**
 * Where the key-encryption key comes from:
 * - `KEY_ENCRYPTION_KEY` when set (required with `DATABASE_URL` and `NODE_ENV=production`, see app.config.ts);
 * - embedded default (no `DATABASE_URL`): a key generated once into `DATA_DIR/key-encryption-key`
 *   (mode 0600), next to the database it protects; in memory for an in-memory database;
 * - `DATABASE_URL` outside production: a key derived from `DATABASE_URL` with HKDF, so that every
 *   instance on that database agrees without configuration. It is only as secret as the URL and
 *   changes with it: a development convenience, announced with a warning.
 * The derived key also stays in the ring as a previous key, so keys sealed under it during
 * development are re-sealed under `KEY_ENCRYPTION_KEY` once that is set.
 */
export async function resolveKeyEncryptionKeyring(config: KeyConfig, warn: Warn): Promise<KeyEncryptionKeyring> {
  const derived = config.databaseUrl === undefined ? [] : [new KeyEncryptionKey(deriveDevelopmentKey(config.databaseUrl))];
  const previous = [...config.previousKeyEncryptionKeys.map((bytes) => new KeyEncryptionKey(bytes)), ...derived];
  if (config.keyEncryptionKey) return new KeyEncryptionKeyring(new KeyEncryptionKey(config.keyEncryptionKey), previous);
  if (config.databaseUrl !== undefined) {
    warn(
      'KEY_ENCRYPTION_KEY is not set: signing keys are sealed under a key derived from DATABASE_URL, which protects ' +
        'nothing from anyone who knows that URL. Set KEY_ENCRYPTION_KEY (openssl rand -base64 32) on every instance; ' +
        'it is required with NODE_ENV=production.',
    );
    return new KeyEncryptionKeyring(
      derived[0],
      config.previousKeyEncryptionKeys.map((bytes) => new KeyEncryptionKey(bytes)),
    );
  }
  return new KeyEncryptionKeyring(new KeyEncryptionKey(await embeddedKey(config.dataDir, warn)), previous);
}

/** HKDF-SHA256 (RFC 5869) of the database URL: deterministic, for development only. */
export function deriveDevelopmentKey(databaseUrl: string): Buffer {
  return Buffer.from(hkdfSync('sha256', databaseUrl, 'tollgate', 'tollgate development key-encryption key v1', 32));
}

async function embeddedKey(dataDir: string, warn: Warn): Promise<Buffer> {
  if (dataDir.startsWith('memory://')) return randomBytes(32);
  const file = resolve(dataDir, KEY_ENCRYPTION_KEY_FILE);
  const existing = await readKeyFile(file);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process wrote it first: use that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readKeyFile(file))!;
    throw error;
  }
  await chmod(file, 0o600);
  warn(
    `KEY_ENCRYPTION_KEY is not set: generated one into ${file} (mode 0600). Signing keys in the embedded database ` +
      'are sealed under it: keep the file with the data directory, back it up, and set KEY_ENCRYPTION_KEY to its ' +
      'content when moving to PostgreSQL.',
  );
  return key;
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key-encryption key`);
  return key;
}
