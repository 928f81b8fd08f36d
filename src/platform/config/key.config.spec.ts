import { randomBytes } from 'node:crypto';
import { loadConfig } from './app.config';
import { configProblems } from '../../../test/support/config-problems';

const POSTGRES = 'postgresql://tollgate@db.internal:5432/tollgate';
const KEY = randomBytes(32);
// Production refuses an http or localhost issuer (production-safety.spec.ts); these tests are about keys.
const ISSUER = 'https://id.example.com';

describe('loadConfig: signing keys', () => {
  it('stops a production boot on a shared database without KEY_ENCRYPTION_KEY', () => {
    expect(configProblems({ NODE_ENV: 'production', ISSUER, DATABASE_URL: POSTGRES })).toEqual([
      'KEY_ENCRYPTION_KEY must be set when NODE_ENV=production and DATABASE_URL is set (32 random bytes, base64-encoded (openssl rand -base64 32))',
    ]);
    expect(configProblems({ NODE_ENV: 'production', ISSUER, DATABASE_URL: POSTGRES, KEY_ENCRYPTION_KEY: '' })).toHaveLength(1);
  });

  it.each([
    ['KEY_ENCRYPTION_KEY', 'c2hvcnQ=', 'KEY_ENCRYPTION_KEY must be 32 random bytes, base64-encoded (openssl rand -base64 32)'],
    ['KEY_ENCRYPTION_KEY', randomBytes(33).toString('base64'), 'KEY_ENCRYPTION_KEY must be 32 random bytes, base64-encoded (openssl rand -base64 32)'],
    [
      'KEY_ENCRYPTION_KEY',
      `${KEY.toString('base64').slice(0, 40)}!!!=`,
      'KEY_ENCRYPTION_KEY must be 32 random bytes, base64-encoded (openssl rand -base64 32)',
    ],
    [
      'KEY_ENCRYPTION_KEY_PREVIOUS',
      `${KEY.toString('base64')},nope`,
      'KEY_ENCRYPTION_KEY_PREVIOUS must be a comma-separated list of 32 random bytes, base64-encoded (openssl rand -base64 32)',
    ],
    ['KEY_ROTATION_INTERVAL', '0', 'KEY_ROTATION_INTERVAL must be a duration: an integer with an optional unit s, m, h or d (e.g. 90d), above 0'],
    ['KEY_ROTATION_INTERVAL', '90 days', 'KEY_ROTATION_INTERVAL must be a duration: an integer with an optional unit s, m, h or d (e.g. 90d), above 0'],
    ['KEY_PROPAGATION_TIME', '-1', 'KEY_PROPAGATION_TIME must be a duration: an integer with an optional unit s, m, h or d (e.g. 90d)'],
    ['KEY_RETENTION_TIME', '2w', 'KEY_RETENTION_TIME must be a duration: an integer with an optional unit s, m, h or d (e.g. 90d)'],
    [
      'KEY_ROTATION_CHECK_INTERVAL',
      '2d',
      'KEY_ROTATION_CHECK_INTERVAL must be a duration: an integer with an optional unit s, m, h or d (e.g. 90d), from 1s to 1d',
    ],
    [
      'KEY_ROTATION_CHECK_INTERVAL',
      '0',
      'KEY_ROTATION_CHECK_INTERVAL must be a duration: an integer with an optional unit s, m, h or d (e.g. 90d), from 1s to 1d',
    ],
  ])('refuses %s=%j', (name, value, problem) => {
    expect(configProblems({ [name]: value })).toEqual([problem]);
  });

  it('refuses a propagation time that is not shorter than the rotation interval', () => {
    expect(configProblems({ KEY_ROTATION_INTERVAL: '14d', KEY_PROPAGATION_TIME: '14d' })).toEqual([
      'KEY_PROPAGATION_TIME must be shorter than KEY_ROTATION_INTERVAL',
    ]);
  });

  it("applies Duende's defaults and leaves the key-encryption key to the boot", () => {
    expect(loadConfig({ DATABASE_URL: POSTGRES })).toMatchObject({
      keyEncryptionKey: undefined,
      previousKeyEncryptionKeys: [],
      keyRotation: { rotationIntervalSeconds: 90 * 86_400, propagationSeconds: 14 * 86_400, retentionSeconds: 14 * 86_400, checkIntervalSeconds: 3600 },
    });
  });

  it('reads the key-encryption keys in standard or URL-safe base64, and durations with units', () => {
    const previous = randomBytes(32);
    const config = loadConfig({
      NODE_ENV: 'production',
      ISSUER,
      DATABASE_URL: POSTGRES,
      KEY_ENCRYPTION_KEY: KEY.toString('base64'),
      KEY_ENCRYPTION_KEY_PREVIOUS: ` ${previous.toString('base64url')} ,`,
      KEY_ROTATION_INTERVAL: '30d',
      KEY_PROPAGATION_TIME: '20m',
      KEY_RETENTION_TIME: '12h',
      KEY_ROTATION_CHECK_INTERVAL: '5m',
    });
    expect(config.keyEncryptionKey?.equals(KEY)).toBe(true);
    expect(config.previousKeyEncryptionKeys.map((key) => key.toString('hex'))).toEqual([previous.toString('hex')]);
    expect(config.keyRotation).toEqual({
      rotationIntervalSeconds: 30 * 86_400,
      propagationSeconds: 1200,
      retentionSeconds: 12 * 3600,
      checkIntervalSeconds: 300,
    });
  });

  it('lets the embedded default and development boot without KEY_ENCRYPTION_KEY', () => {
    expect(configProblems({})).toEqual([]);
    // In production the embedded database is refused for itself, not for a missing key-encryption key.
    expect(configProblems({ NODE_ENV: 'production', ISSUER, SEED_DEMO: 'false' })).toEqual([
      expect.stringMatching(/^DATABASE_URL must be set when NODE_ENV=production/),
    ]);
    expect(configProblems({ DATABASE_URL: POSTGRES })).toEqual([]);
  });
});
