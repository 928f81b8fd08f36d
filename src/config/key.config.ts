/**
 * The signing-key settings of `AppConfig`: the key-encryption key and the rotation periods.
 * Parsed by `loadConfig` (app.config.ts), which hands over the environment it reads.
 */
export interface KeyConfig {
  /** AES-256-GCM key sealing the signing keys' private parts (`KEY_ENCRYPTION_KEY`); unset: see src/keys/key-encryption-key.ts. */
  readonly keyEncryptionKey: Buffer | undefined;
  /** Further key-encryption keys, only to open keys sealed under them (`KEY_ENCRYPTION_KEY_PREVIOUS`). */
  readonly previousKeyEncryptionKeys: readonly Buffer[];
  readonly keyRotation: KeyRotationSettings;
}

/** Signing-key rotation (Duende's defaults: rotate every 90 days, publish 14 days ahead, retain 14 days). */
export interface KeyRotationSettings {
  /** Age at which a key stops signing (`KEY_ROTATION_INTERVAL`). */
  readonly rotationIntervalSeconds: number;
  /** How long a new key is published before it signs (`KEY_PROPAGATION_TIME`). */
  readonly propagationSeconds: number;
  /** How long a key stays published after it stopped signing (`KEY_RETENTION_TIME`). */
  readonly retentionSeconds: number;
  /** How often each instance checks, under a database lock, whether a rotation is due (`KEY_ROTATION_CHECK_INTERVAL`). */
  readonly checkIntervalSeconds: number;
}

type Env = Readonly<Record<string, string | undefined>>;
type Read = <T>(name: string, fallback: T, parse: (raw: string) => T | undefined, expected: string) => T;

const KEY_ENCRYPTION_KEY_FORMAT = '32 random bytes, base64-encoded (openssl rand -base64 32)';
const DURATION_FORMAT = 'a duration: an integer with an optional unit s, m, h or d (e.g. 90d)';
const DAY = 86_400;

export function readKeyConfig(env: Env, read: Read, databaseUrl: string | undefined, problems: string[]): KeyConfig {
  const keyEncryptionKey = read<Buffer | undefined>('KEY_ENCRYPTION_KEY', undefined, parseKeyEncryptionKey, KEY_ENCRYPTION_KEY_FORMAT);
  const previousKeyEncryptionKeys = read<Buffer[]>('KEY_ENCRYPTION_KEY_PREVIOUS', [], parseKeyEncryptionKeys, `a comma-separated list of ${KEY_ENCRYPTION_KEY_FORMAT}`);
  // Secrets have no defaults: with a shared database in production, a missing key stops the boot.
  if (!env.KEY_ENCRYPTION_KEY && databaseUrl !== undefined && env.NODE_ENV === 'production') {
    problems.push(`KEY_ENCRYPTION_KEY must be set when NODE_ENV=production and DATABASE_URL is set (${KEY_ENCRYPTION_KEY_FORMAT})`);
  }
  return { keyEncryptionKey, previousKeyEncryptionKeys, keyRotation: readKeyRotation(read, problems) };
}

function readKeyRotation(read: Read, problems: string[]): KeyRotationSettings {
  const rotationIntervalSeconds = read('KEY_ROTATION_INTERVAL', 90 * DAY, (raw) => within(parseDuration(raw), 1, 3650 * DAY), `${DURATION_FORMAT}, above 0`);
  const propagationSeconds = read('KEY_PROPAGATION_TIME', 14 * DAY, parseDuration, DURATION_FORMAT);
  const retentionSeconds = read('KEY_RETENTION_TIME', 14 * DAY, parseDuration, DURATION_FORMAT);
  // Timers hold at most about 24 days; a check is cheap, so at least daily.
  const checkIntervalSeconds = read('KEY_ROTATION_CHECK_INTERVAL', 3600, (raw) => within(parseDuration(raw), 1, DAY), `${DURATION_FORMAT}, from 1s to 1d`);
  // The successor is created `propagation` before its predecessor's interval ends.
  if (propagationSeconds >= rotationIntervalSeconds) problems.push('KEY_PROPAGATION_TIME must be shorter than KEY_ROTATION_INTERVAL');
  return { rotationIntervalSeconds, propagationSeconds, retentionSeconds, checkIntervalSeconds };
}

const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: DAY };

/** `90d`, `12h`, `30m`, `45s` or plain seconds; at most 10 years. */
function parseDuration(raw: string): number | undefined {
  const match = /^(\d{1,10})([smhd]?)$/.exec(raw);
  if (!match) return undefined;
  return within(Number(match[1]) * DURATION_UNITS[match[2] || 's'], 0, 3650 * DAY);
}

function within(value: number | undefined, min: number, max: number): number | undefined {
  return value !== undefined && value >= min && value <= max ? value : undefined;
}

function parseKeyEncryptionKey(raw: string): Buffer | undefined {
  // Standard or URL-safe base64 of exactly 32 bytes; Node's base64 decoder reads both alphabets.
  const text = raw.trim();
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 32 ? bytes : undefined;
}

function parseKeyEncryptionKeys(raw: string): Buffer[] | undefined {
  const keys = raw.split(',').filter((item) => item.trim() !== '').map(parseKeyEncryptionKey);
  return keys.every((key) => key !== undefined) ? (keys as Buffer[]) : undefined;
}
