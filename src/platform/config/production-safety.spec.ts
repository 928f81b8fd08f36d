import { loadConfig } from './app.config';
import { keyPropagationWarning } from './production-safety';
import { configProblems } from '../../../test/support/config-problems';

const POSTGRES = 'postgresql://tollgate@db.internal:5432/tollgate';
const KEK = Buffer.alloc(32, 1).toString('base64');
const SAFE = { NODE_ENV: 'production', ISSUER: 'https://id.example.com', DATABASE_URL: POSTGRES, KEY_ENCRYPTION_KEY: KEK };

describe('loadConfig with NODE_ENV=production', () => {
  it.each([
    ['http://id.example.com', 'is not https'],
    ['http://localhost:5000', 'is not https'],
    ['https://localhost:5000', 'names this machine (localhost), which no other machine can reach'],
    ['https://tollgate.localhost', 'names this machine (localhost), which no other machine can reach'],
    ['https://127.0.0.1:8443', 'names this machine (localhost), which no other machine can reach'],
    ['https://[::1]', 'names this machine (localhost), which no other machine can reach'],
  ])('refuses ISSUER=%s, naming ALLOW_INSECURE_ISSUER', (issuer, why) => {
    expect(configProblems({ ...SAFE, ISSUER: issuer })).toEqual([
      `ISSUER ${issuer} ${why}: with NODE_ENV=production set ISSUER to the public https URL clients reach (ALLOW_INSECURE_ISSUER=true overrides this, for test benches only)`,
    ]);
    expect(configProblems({ ...SAFE, ISSUER: issuer, ALLOW_INSECURE_ISSUER: 'true' })).toEqual([]);
    expect(configProblems({ ...SAFE, ISSUER: issuer, ALLOW_INSECURE_ISSUER: '1' })).toHaveLength(1);
    // Let through, it is warned about at every start (main.ts).
    expect(loadConfig({ ...SAFE, ISSUER: issuer, ALLOW_INSECURE_ISSUER: 'true' }).startupWarnings).toEqual([
      `ALLOW_INSECURE_ISSUER=true: ISSUER ${issuer} ${why}, and tokens, codes and passwords cross the network in clear text. For test benches only: never expose this instance.`,
    ]);
  });

  it('warns about ALLOW_INSECURE_ISSUER only when it lets an issuer through', () => {
    expect(loadConfig({ ...SAFE, ALLOW_INSECURE_ISSUER: 'true' }).startupWarnings).toEqual([]);
    expect(loadConfig({ ISSUER: 'http://localhost:5000' }).startupWarnings).toEqual([]);
  });

  it('refuses the default issuer, which is http://localhost', () => {
    expect(configProblems({ ...SAFE, ISSUER: '' })).toEqual([
      expect.stringMatching(/^ISSUER http:\/\/localhost:5000 is not https: .*ALLOW_INSECURE_ISSUER=true/),
    ]);
  });

  it('refuses SEED_DEMO=true unless ALLOW_DEMO_DATA=true', () => {
    expect(configProblems({ ...SAFE, SEED_DEMO: 'true' })).toEqual([
      'SEED_DEMO=true (the default without DATABASE_URL) applies the demo data set, whose secrets and passwords are public: with NODE_ENV=production set SEED_DEMO=false (ALLOW_DEMO_DATA=true overrides this, for test benches only)',
    ]);
    expect(configProblems({ ...SAFE, SEED_DEMO: 'true', ALLOW_DEMO_DATA: 'true' })).toEqual([]);
  });

  it('refuses to run without DATABASE_URL, and says how to run on the embedded database', () => {
    expect(configProblems({ NODE_ENV: 'production', ISSUER: 'https://id.example.com', SEED_DEMO: 'false' })).toEqual([
      'DATABASE_URL must be set when NODE_ENV=production: the embedded database is for development, one process on one machine (no override: unset NODE_ENV to run on the embedded database)',
    ]);
  });

  it.each(['0', '70s', '14m', '899'])('refuses KEY_PROPAGATION_TIME=%s, below 15 minutes, with no override', (value) => {
    const seconds = value.endsWith('m') ? Number(value.slice(0, -1)) * 60 : Number(value.replace('s', ''));
    expect(configProblems({ ...SAFE, KEY_PROPAGATION_TIME: value })).toEqual([
      `KEY_PROPAGATION_TIME is ${seconds}s: with NODE_ENV=production it must be at least 15m, as resource servers cache discovery and the JWKS for up to 10 minutes and would refuse the first tokens of a new key (no override: tests and benches may go lower outside production)`,
    ]);
    expect(configProblems({ ...SAFE, KEY_PROPAGATION_TIME: value, ALLOW_INSECURE_ISSUER: 'true', ALLOW_DEMO_DATA: 'true' })).toHaveLength(1);
  });

  it('accepts KEY_PROPAGATION_TIME of 15 minutes or more, and any value outside production', () => {
    for (const value of ['15m', '900', '1h', '14d']) expect(configProblems({ ...SAFE, KEY_PROPAGATION_TIME: value })).toEqual([]);
    expect(configProblems({ ISSUER: 'http://localhost:5000', KEY_PROPAGATION_TIME: '0' })).toEqual([]);
    expect(configProblems({ NODE_ENV: 'test', KEY_PROPAGATION_TIME: '70s' })).toEqual([]);
  });

  it('reports every refusal at once', () => {
    expect(configProblems({ NODE_ENV: 'production' }).map((problem) => problem.split(' ')[0])).toEqual(['ISSUER', 'SEED_DEMO=true', 'DATABASE_URL']);
  });

  it('accepts a safe production configuration, and anything outside production', () => {
    expect(configProblems(SAFE)).toEqual([]);
    expect(configProblems({ ISSUER: 'http://localhost:5000', SEED_DEMO: 'true' })).toEqual([]);
    expect(configProblems({ NODE_ENV: 'development', ISSUER: 'http://localhost:5000', SEED_DEMO: 'true' })).toEqual([]);
  });
});

describe('METRICS_PORT', () => {
  it('is unset by default (no metrics listener) and must be a port', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(configProblems({ METRICS_PORT: 'metrics' })).toEqual(['METRICS_PORT must be an integer from 0 to 65535']);
  });
});

describe('keyPropagationWarning', () => {
  it('warns below 15 minutes, naming the value and the production refusal', () => {
    expect(keyPropagationWarning(70)).toBe(
      'KEY_PROPAGATION_TIME is 70s: a new signing key is published for less than 15 minutes before it signs, so resource servers that cache the JWKS for up to 10 minutes may refuse its first tokens (refused with NODE_ENV=production)',
    );
    expect(keyPropagationWarning(0)).toContain('KEY_PROPAGATION_TIME is 0s');
    expect(keyPropagationWarning(899)).toBeDefined();
  });

  it('is silent from 15 minutes on', () => {
    expect([keyPropagationWarning(900), keyPropagationWarning(14 * 86_400)]).toEqual([undefined, undefined]);
  });
});
