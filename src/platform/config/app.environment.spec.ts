import { AppEnvironment } from './app.environment';
import { validateEnvironment } from './environment';
import { KeyEnvironment } from './key.config';
import { ThrottlingEnvironment } from './throttling.config';

describe('AppEnvironment', () => {
  it.each([
    ['PORT', '-1', 'PORT must be an integer from 0 to 65535'],
    ['PORT', '1e3', 'PORT must be an integer from 0 to 65535'],
    ['PORT', ' 80', 'PORT must be an integer from 0 to 65535'],
    ['ISSUER', 'https://', 'ISSUER must be an absolute http(s) URL without query or fragment'],
    ['DATABASE_URL', 'postgres', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['SEED_DEMO', '1', 'SEED_DEMO must be "true" or "false"'],
    ['LOG_LEVEL', 'INFO', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    ['VERIFIED_TOKEN_CACHE_SIZE', '1000001', 'VERIFIED_TOKEN_CACHE_SIZE must be an integer from 0 to 1000000'],
    ['VERIFIED_TOKEN_CACHE_SECONDS', '3601', 'VERIFIED_TOKEN_CACHE_SECONDS must be an integer from 0 to 3600'],
    ['SHUTDOWN_DRAIN_SECONDS', '301', 'SHUTDOWN_DRAIN_SECONDS must be an integer from 0 to 300'],
    ['MAX_CONCURRENT_REQUESTS', '0', 'MAX_CONCURRENT_REQUESTS must be an integer from 1 to 100000'],
    ['METRICS_PORT', '65536', 'METRICS_PORT must be an integer from 0 to 65535'],
    ['TRUST_DOMAIN', 'example.com', 'TRUST_DOMAIN must be a URI (e.g. https://example.com or spiffe://example.com), at most 200 characters'],
    ['TRUST_DOMAIN', `spiffe://${'a'.repeat(192)}`, 'TRUST_DOMAIN must be a URI (e.g. https://example.com or spiffe://example.com), at most 200 characters'],
    ['TXN_TOKEN_LIFETIME_SECONDS', '301', 'TXN_TOKEN_LIFETIME_SECONDS must be an integer from 1 to 300'],
    ['JWKS_REFETCH_SECONDS', '0', 'JWKS_REFETCH_SECONDS must be an integer from 1 to 3600'],
    ['SESSION_LIFETIME_SECONDS', '59', 'SESSION_LIFETIME_SECONDS must be an integer from 60 to 7776000'],
    ['ID_TOKEN_LIFETIME_SECONDS', '86401', 'ID_TOKEN_LIFETIME_SECONDS must be an integer from 30 to 86400'],
  ])('refuses %s=%j with one message naming it', (name, value, problem) => {
    const { variables, problems } = validateEnvironment(AppEnvironment, { [name]: value });
    expect(problems).toEqual([problem]);
    expect(variables).not.toHaveProperty(name);
  });

  it('reports every refused variable, in the order the class declares them, and keeps the valid ones', () => {
    const env = { SIGNING_ALG: 'none', PORT: 'http', HOST: 'localhost', ID_TOKEN_LIFETIME_SECONDS: '1', CACHE_TTL_SECONDS: '60' };
    const { variables, problems } = validateEnvironment(AppEnvironment, env);
    expect(problems).toEqual([
      'PORT must be an integer from 0 to 65535',
      'SIGNING_ALG must be one of RS256, PS256, ES256, EdDSA',
      'ID_TOKEN_LIFETIME_SECONDS must be an integer from 30 to 86400',
    ]);
    expect({ ...variables }).toEqual({ HOST: 'localhost', CACHE_TTL_SECONDS: 60 });
  });

  it('reads numbers as numbers and leaves unset, empty and undeclared variables out', () => {
    const { variables, problems } = validateEnvironment(AppEnvironment, {
      PORT: '0443',
      METRICS_PORT: '',
      PATH: '/usr/bin',
      TRUST_DOMAIN: 'spiffe://example.com',
    });
    expect(problems).toEqual([]);
    expect({ ...variables }).toEqual({ PORT: 443, TRUST_DOMAIN: 'spiffe://example.com' });
  });
});

describe('KeyEnvironment', () => {
  it('reads durations with units into seconds and splits the previous keys', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const { variables, problems } = validateEnvironment(KeyEnvironment, {
      KEY_ROTATION_INTERVAL: '2h',
      KEY_RETENTION_TIME: '90',
      KEY_ENCRYPTION_KEY_PREVIOUS: `${key},,`,
    });
    expect(problems).toEqual([]);
    expect({ ...variables }).toEqual({ KEY_ROTATION_INTERVAL: 7200, KEY_RETENTION_TIME: 90, KEY_ENCRYPTION_KEY_PREVIOUS: [key] });
  });

  it('refuses a duration longer than ten years', () => {
    expect(validateEnvironment(KeyEnvironment, { KEY_RETENTION_TIME: '3651d' }).problems).toEqual([
      'KEY_RETENTION_TIME must be a duration: an integer with an optional unit s, m, h or d (e.g. 90d)',
    ]);
  });
});

describe('ThrottlingEnvironment', () => {
  it('refuses each bad variable with its own message, all at once', () => {
    const env = { RATE_LIMIT_WINDOW_SECONDS: '86401', RATE_LIMIT_PER_CLIENT: '1.5', RATE_LIMIT_MEMORY_KEYS: '99', TRUST_PROXY: '101' };
    expect(validateEnvironment(ThrottlingEnvironment, env).problems).toEqual([
      'RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 86400',
      'RATE_LIMIT_PER_CLIENT must be a whole number',
      'RATE_LIMIT_MEMORY_KEYS must be an integer from 100 to 100000000',
      'TRUST_PROXY must be a hop count, or comma-separated IP addresses or CIDR ranges',
    ]);
  });
});
