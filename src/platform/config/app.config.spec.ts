import { loadConfig } from './app.config';
import { configProblems } from '../../../test/support/config-problems';

const POSTGRES = 'postgresql://tollgate@db.internal:5432/tollgate';

describe('loadConfig', () => {
  it('reports every bad variable in one ConfigError', () => {
    const env = {
      PORT: '70000',
      ISSUER: 'https://id.example.com/?tenant=a',
      DATABASE_URL: 'mysql://db/tollgate',
      SEED_DEMO: 'yes',
      LOG_LEVEL: 'verbose',
      DATABASE_POOL_SIZE: '0',
      CACHE_TTL_SECONDS: '-1',
      SIGNING_ALG: 'HS256',
    };
    expect(configProblems(env)).toEqual([
      'PORT must be an integer from 0 to 65535',
      'ISSUER must be an absolute http(s) URL without query or fragment',
      'DATABASE_URL must be a postgres:// or postgresql:// URL',
      'SEED_DEMO must be "true" or "false"',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'DATABASE_POOL_SIZE must be an integer from 1 to 200',
      'CACHE_TTL_SECONDS must be an integer from 0 to 3600',
      'SIGNING_ALG must be one of RS256, PS256, ES256, EdDSA',
    ]);
    expect(() => loadConfig(env)).toThrow(/^Invalid configuration: PORT must be .*; SIGNING_ALG must be one of RS256, PS256, ES256, EdDSA$/);
  });

  it('reports bad variables of every section, and the production refusals, in one ConfigError', () => {
    const env = { NODE_ENV: 'production', ISSUER: 'https://id.example.com', SEED_DEMO: 'false', PORT: 'x', KEY_ROTATION_INTERVAL: '0', REDIS_URL: 'redis' };
    expect(configProblems(env)).toEqual([
      'PORT must be an integer from 0 to 65535',
      'KEY_ROTATION_INTERVAL must be a duration: an integer with an optional unit s, m, h or d (e.g. 90d), above 0',
      'REDIS_URL must be a redis:// or rediss:// URL',
      expect.stringMatching(/^DATABASE_URL must be set when NODE_ENV=production/),
    ]);
  });

  it.each([
    ['PORT', '80.5', 'PORT must be an integer from 0 to 65535'],
    ['PORT', '0x50', 'PORT must be an integer from 0 to 65535'],
    ['ISSUER', 'localhost:5000', 'ISSUER must be an absolute http(s) URL without query or fragment'],
    ['ISSUER', 'ftp://id.example.com', 'ISSUER must be an absolute http(s) URL without query or fragment'],
    ['ISSUER', 'https://id.example.com/#top', 'ISSUER must be an absolute http(s) URL without query or fragment'],
    ['ISSUER', 'https://id.example.com/?', 'ISSUER must be an absolute http(s) URL without query or fragment'],
    ['ISSUER', 'https://id.example.com#', 'ISSUER must be an absolute http(s) URL without query or fragment'],
    ['DATABASE_URL', 'not a url', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['SEED_DEMO', 'TRUE', 'SEED_DEMO must be "true" or "false"'],
    [
      'TOLLGATE_EXTENSIONS',
      '/extensions/a.js,,/extensions/b.js',
      'TOLLGATE_EXTENSIONS must be comma-separated paths of JavaScript modules, at most 4000 characters',
    ],
    ['TOLLGATE_EXTENSIONS', '/extensions/my extension.js', 'TOLLGATE_EXTENSIONS must be comma-separated paths of JavaScript modules, at most 4000 characters'],
    ['TOLLGATE_EXTENSIONS', `/${'x'.repeat(4000)}.js`, 'TOLLGATE_EXTENSIONS must be comma-separated paths of JavaScript modules, at most 4000 characters'],
  ])('refuses %s=%j', (name, value, problem) => {
    expect(configProblems({ [name]: value })).toEqual([problem]);
  });

  // toMatchObject: other issues add their own settings, tested in their own specs.
  it('applies the documented defaults (docs/configuration.md) to an empty environment', () => {
    expect(loadConfig({})).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      issuer: 'http://localhost:5000',
      databaseUrl: undefined,
      dataDir: './.data',
      seedDemo: true,
      logLevel: 'info',
      databasePoolSize: 10,
      cacheTtlSeconds: 5,
      signingAlgorithm: 'RS256',
    });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', SEED_DEMO: '', DATABASE_URL: '' })).toMatchObject({ port: 5000, seedDemo: true, databaseUrl: undefined });
  });

  it('defaults SEED_DEMO to false when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: POSTGRES })).toMatchObject({ databaseUrl: POSTGRES, seedDemo: false });
  });

  it('lets SEED_DEMO override its default either way', () => {
    expect(loadConfig({ DATABASE_URL: POSTGRES, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('reads TOLLGATE_EXTENSIONS as a list of paths, none when unset', () => {
    expect(loadConfig({}).extensions).toEqual([]);
    expect(loadConfig({ TOLLGATE_EXTENSIONS: '/extensions/partner-key.js, ./attestation.js' }).extensions).toEqual([
      '/extensions/partner-key.js',
      './attestation.js',
    ]);
  });

  it('derives the default issuer from PORT', () => {
    expect(loadConfig({ PORT: '8080' }).issuer).toBe('http://localhost:8080');
  });

  it('reads every variable, stripping trailing slashes from ISSUER', () => {
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      ISSUER: 'https://id.example.com/tollgate//',
      DATABASE_URL: 'postgres://db/tollgate',
      DATA_DIR: '/var/lib/tollgate',
      LOG_LEVEL: 'silent',
      DATABASE_POOL_SIZE: '200',
      CACHE_TTL_SECONDS: '0',
      SIGNING_ALG: 'ES256',
    };
    expect(loadConfig(env)).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      issuer: 'https://id.example.com/tollgate',
      databaseUrl: 'postgres://db/tollgate',
      dataDir: '/var/lib/tollgate',
      seedDemo: false,
      logLevel: 'silent',
      databasePoolSize: 200,
      cacheTtlSeconds: 0,
      signingAlgorithm: 'ES256',
    });
  });
});
