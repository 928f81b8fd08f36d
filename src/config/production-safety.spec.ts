import { ConfigError, loadConfig } from './app.config';

const POSTGRES = 'postgresql://tollgate@db.internal:5432/tollgate';
const KEK = Buffer.alloc(32, 1).toString('base64');
const SAFE = { NODE_ENV: 'production', ISSUER: 'https://id.example.com', DATABASE_URL: POSTGRES, KEY_ENCRYPTION_KEY: KEK };

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig with NODE_ENV=production', () => {
  it.each([
    ['http://id.example.com', 'is not https'],
    ['http://localhost:5000', 'is not https'],
    ['https://localhost:5000', 'names this machine (localhost), which no other machine can reach'],
    ['https://tollgate.localhost', 'names this machine (localhost), which no other machine can reach'],
    ['https://127.0.0.1:8443', 'names this machine (localhost), which no other machine can reach'],
    ['https://[::1]', 'names this machine (localhost), which no other machine can reach'],
  ])('refuses ISSUER=%s, naming ALLOW_INSECURE_ISSUER', (issuer, why) => {
    expect(problemsOf({ ...SAFE, ISSUER: issuer })).toEqual([
      `ISSUER ${issuer} ${why}: with NODE_ENV=production set ISSUER to the public https URL clients reach (ALLOW_INSECURE_ISSUER=true overrides this, for test benches only)`,
    ]);
    expect(problemsOf({ ...SAFE, ISSUER: issuer, ALLOW_INSECURE_ISSUER: 'true' })).toEqual([]);
    expect(problemsOf({ ...SAFE, ISSUER: issuer, ALLOW_INSECURE_ISSUER: '1' })).toHaveLength(1);
  });

  it('refuses the default issuer, which is http://localhost', () => {
    expect(problemsOf({ ...SAFE, ISSUER: '' })).toEqual([expect.stringMatching(/^ISSUER http:\/\/localhost:5000 is not https: .*ALLOW_INSECURE_ISSUER=true/)]);
  });

  it('refuses SEED_DEMO=true unless ALLOW_DEMO_DATA=true', () => {
    expect(problemsOf({ ...SAFE, SEED_DEMO: 'true' })).toEqual([
      'SEED_DEMO=true (the default without DATABASE_URL) applies the demo data set, whose secrets and passwords are public: with NODE_ENV=production set SEED_DEMO=false (ALLOW_DEMO_DATA=true overrides this, for test benches only)',
    ]);
    expect(problemsOf({ ...SAFE, SEED_DEMO: 'true', ALLOW_DEMO_DATA: 'true' })).toEqual([]);
  });

  it('refuses to run without DATABASE_URL, and says how to run on the embedded database', () => {
    expect(problemsOf({ NODE_ENV: 'production', ISSUER: 'https://id.example.com', SEED_DEMO: 'false' })).toEqual([
      'DATABASE_URL must be set when NODE_ENV=production: the embedded database is for development, one process on one machine (no override: unset NODE_ENV to run on the embedded database)',
    ]);
  });

  it('reports every refusal at once', () => {
    expect(problemsOf({ NODE_ENV: 'production' }).map((problem) => problem.split(' ')[0])).toEqual(['ISSUER', 'SEED_DEMO=true', 'DATABASE_URL']);
  });

  it('accepts a safe production configuration, and anything outside production', () => {
    expect(problemsOf(SAFE)).toEqual([]);
    expect(problemsOf({ ISSUER: 'http://localhost:5000', SEED_DEMO: 'true' })).toEqual([]);
    expect(problemsOf({ NODE_ENV: 'development', ISSUER: 'http://localhost:5000', SEED_DEMO: 'true' })).toEqual([]);
  });
});

describe('METRICS_PORT', () => {
  it('is unset by default (no metrics listener) and must be a port', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(problemsOf({ METRICS_PORT: 'metrics' })).toEqual(['METRICS_PORT must be an integer from 0 to 65535']);
  });
});
