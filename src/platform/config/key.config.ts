import { Transform } from 'class-transformer';
import { NumberIn, Satisfies, validateEnvironment, type Env } from './environment';

/**
 * The signing-key settings of `AppConfig`: the key-encryption key and the rotation periods.
 * Read by `loadConfig` from the `KEY_ENCRYPTION_KEY*` and `KEY_ROTATION_*` variables (docs/configuration.md).
 */
export interface KeyConfig {
  /** AES-256-GCM key sealing the signing keys' private parts (`KEY_ENCRYPTION_KEY`); unset: a key derived from `DATABASE_URL`, with a warning (docs/configuration.md). */
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

const KEY_ENCRYPTION_KEY_FORMAT = '32 random bytes, base64-encoded (openssl rand -base64 32)';
const DURATION_FORMAT = 'a duration: an integer with an optional unit s, m, h or d (e.g. 90d)';
const DAY = 86_400;
const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: DAY };

/** `90d`, `12h`, `30m`, `45s` or plain seconds. */
function parseDuration(raw: string): number | undefined {
  const match = /^(\d{1,10})([smhd]?)$/.exec(raw);
  return match ? Number(match[1]) * DURATION_UNITS[match[2] || 's'] : undefined;
}

/** A duration (`parseDuration`) from `min` to `max` seconds, at most 10 years. */
const DurationIn = (min: number, max: number, expected: string) => NumberIn(min, max, expected, parseDuration);

/** The signing-key variables (docs/configuration.md#signing-keys), each optional. */
export class KeyEnvironment {
  @Satisfies(isKeyEncryptionKey, KEY_ENCRYPTION_KEY_FORMAT) KEY_ENCRYPTION_KEY?: string;
  @Transform(({ value }: { value: string }) => value.split(',').filter((item) => item.trim() !== ''))
  @Satisfies((keys) => Array.isArray(keys) && keys.every(isKeyEncryptionKey), `a comma-separated list of ${KEY_ENCRYPTION_KEY_FORMAT}`)
  KEY_ENCRYPTION_KEY_PREVIOUS?: string[];
  @DurationIn(1, 3650 * DAY, `${DURATION_FORMAT}, above 0`) KEY_ROTATION_INTERVAL?: number;
  @DurationIn(0, 3650 * DAY, DURATION_FORMAT) KEY_PROPAGATION_TIME?: number;
  @DurationIn(0, 3650 * DAY, DURATION_FORMAT) KEY_RETENTION_TIME?: number;
  // Timers hold at most about 24 days; a check is cheap, so at least daily.
  @DurationIn(1, DAY, `${DURATION_FORMAT}, from 1s to 1d`) KEY_ROTATION_CHECK_INTERVAL?: number;
}

export function readKeyConfig(env: Env, databaseUrl: string | undefined, problems: string[]): KeyConfig {
  const { variables: v, problems: refused } = validateEnvironment(KeyEnvironment, env);
  problems.push(...refused);
  // Secrets have no defaults: with a shared database in production, a missing key stops the boot.
  if (!env.KEY_ENCRYPTION_KEY && databaseUrl !== undefined && env.NODE_ENV === 'production') {
    problems.push(`KEY_ENCRYPTION_KEY must be set when NODE_ENV=production and DATABASE_URL is set (${KEY_ENCRYPTION_KEY_FORMAT})`);
  }
  const keyRotation: KeyRotationSettings = {
    rotationIntervalSeconds: v.KEY_ROTATION_INTERVAL ?? 90 * DAY,
    propagationSeconds: v.KEY_PROPAGATION_TIME ?? 14 * DAY,
    retentionSeconds: v.KEY_RETENTION_TIME ?? 14 * DAY,
    checkIntervalSeconds: v.KEY_ROTATION_CHECK_INTERVAL ?? 3600,
  };
  // The successor is created `propagation` before its predecessor's interval ends.
  if (keyRotation.propagationSeconds >= keyRotation.rotationIntervalSeconds) problems.push('KEY_PROPAGATION_TIME must be shorter than KEY_ROTATION_INTERVAL');
  return {
    keyEncryptionKey: v.KEY_ENCRYPTION_KEY === undefined ? undefined : decodeKeyEncryptionKey(v.KEY_ENCRYPTION_KEY),
    previousKeyEncryptionKeys: (v.KEY_ENCRYPTION_KEY_PREVIOUS ?? []).map(decodeKeyEncryptionKey),
    keyRotation,
  };
}

// Standard or URL-safe base64 of exactly 32 bytes; Node's base64 decoder reads both alphabets.
function isKeyEncryptionKey(value: unknown): boolean {
  return typeof value === 'string' && /^[A-Za-z0-9+/_-]{43}=?$/.test(value.trim()) && decodeKeyEncryptionKey(value).length === 32;
}

function decodeKeyEncryptionKey(text: string): Buffer {
  return Buffer.from(text.trim(), 'base64');
}
