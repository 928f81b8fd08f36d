import { readKeyConfig, type KeyConfig } from './key.config';
import { productionSafetyProblems } from './production-safety';
import { readThrottlingConfig, type RateLimitConfig, type TrustProxy } from './throttling.config';

export type { RateLimitConfig, TrustProxy } from './throttling.config';

/**
 * The service's configuration, parsed from the environment once at boot (docs/configuration.md).
 * This is the only module that reads `process.env`.
 */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly issuer: string;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly seedDemo: boolean;
  readonly logLevel: LogLevel;
  readonly databasePoolSize: number;
  /** How long clients, resources and keys may be served from memory before a change is seen. */
  readonly cacheTtlSeconds: number;
  /** Access tokens that passed validation, kept so a repeat skips the signature check (docs/tokens.md#validation). */
  readonly verifiedTokenCache: { readonly maxEntries: number; readonly maxAgeSeconds: number };
  readonly signingAlgorithm: SigningAlgorithm;
  /** `KEY_ENCRYPTION_KEY`, `KEY_ENCRYPTION_KEY_PREVIOUS` and the `KEY_ROTATION_*` periods (key.config.ts). */
  readonly keyEncryptionKey: KeyConfig['keyEncryptionKey'];
  readonly previousKeyEncryptionKeys: KeyConfig['previousKeyEncryptionKeys'];
  readonly keyRotation: KeyConfig['keyRotation'];
  readonly rateLimits: RateLimitConfig;
  /** `TRUST_PROXY`: proxies whose X-Forwarded-For is believed (Fastify's `trustProxy`); unset trusts none. */
  readonly trustProxy: TrustProxy | undefined;
  /** Requests served at once per instance; more get 503 at once instead of queueing. */
  readonly maxConcurrentRequests: number;
  /** On SIGTERM, how long readiness reports down while requests are still served, before closing. */
  readonly shutdownDrainSeconds: number;
  /** Where Prometheus metrics are served, apart from the public port; undefined: not served. */
  readonly metricsPort: number | undefined;
  /** `TRUST_DOMAIN`: the `aud` of transaction tokens (docs/transaction-tokens.md); the issuer by default. */
  readonly trustDomain: string;
  /** `TXN_TOKEN_LIFETIME_SECONDS`: how long a transaction token lives, at most 300 s. */
  readonly transactionTokenLifetimeSeconds: number;
  /** A remote JWK Set is fetched again for an unknown `kid` at most this often (docs/trusted-issuers.md). */
  readonly jwksRefetchSeconds: number;
  readonly browserSignIn: BrowserSignInConfig;
}

/** docs/browser-sign-in.md */
export interface BrowserSignInConfig {
  /** How long a sign-in session lasts (`SESSION_LIFETIME_SECONDS`, default 8 hours). */
  readonly sessionLifetimeSeconds: number;
  /** `exp` of ID tokens (`ID_TOKEN_LIFETIME_SECONDS`, default 5 minutes). */
  readonly idTokenLifetimeSeconds: number;
  /** `INTERACTION_VIEWS_DIR`: the operator's templates and stylesheet, replacing the built-in ones. */
  readonly viewsDir: string | undefined;
}

/** DI token for the parsed configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');

export const SIGNING_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const read = <T>(name: string, fallback: T, parse: (raw: string) => T | undefined, expected: string): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = parse(raw);
    if (value === undefined) {
      problems.push(`${name} must be ${expected}`);
      return fallback;
    }
    return value;
  };

  const port = read('PORT', 5000, (raw) => integerIn(raw, 0, 65535), 'an integer from 0 to 65535');
  const host = read('HOST', '0.0.0.0', (raw) => raw, 'a host name or address');
  const issuer = read('ISSUER', `http://localhost:${port}`, parseIssuer, 'an absolute http(s) URL without query or fragment');
  const databaseUrl = read<string | undefined>('DATABASE_URL', undefined, parseDatabaseUrl, 'a postgres:// or postgresql:// URL');
  const dataDir = read('DATA_DIR', './.data', (raw) => raw, 'a directory path');
  const seedDemo = read('SEED_DEMO', databaseUrl === undefined, parseBoolean, '"true" or "false"');
  const logLevel = read<LogLevel>('LOG_LEVEL', 'info', (raw) => LOG_LEVELS.find((level) => level === raw), `one of ${LOG_LEVELS.join(', ')}`);
  const databasePoolSize = read('DATABASE_POOL_SIZE', 10, (raw) => integerIn(raw, 1, 200), 'an integer from 1 to 200');
  const cacheTtlSeconds = read('CACHE_TTL_SECONDS', 5, (raw) => integerIn(raw, 0, 3600), 'an integer from 0 to 3600');
  const verifiedTokenCache = {
    maxEntries: read('VERIFIED_TOKEN_CACHE_SIZE', 10_000, (raw) => integerIn(raw, 0, 1_000_000), 'an integer from 0 to 1000000'),
    maxAgeSeconds: read('VERIFIED_TOKEN_CACHE_SECONDS', 300, (raw) => integerIn(raw, 0, 3600), 'an integer from 0 to 3600'),
  };
  const signingAlgorithm = read<SigningAlgorithm>('SIGNING_ALG', 'RS256', (raw) => SIGNING_ALGORITHMS.find((alg) => alg === raw), `one of ${SIGNING_ALGORITHMS.join(', ')}`);
  const keys = readKeyConfig(env, read, databaseUrl, problems);
  const { rateLimits, trustProxy } = readThrottlingConfig(read);
  const shutdownDrainSeconds = read('SHUTDOWN_DRAIN_SECONDS', 0, (raw) => integerIn(raw, 0, 300), 'an integer from 0 to 300');
  const maxConcurrentRequests = read('MAX_CONCURRENT_REQUESTS', 1024, (raw) => integerIn(raw, 1, 100_000), 'an integer from 1 to 100000');

  const metricsPort = read<number | undefined>('METRICS_PORT', undefined, (raw) => integerIn(raw, 0, 65535), 'an integer from 0 to 65535');
  const trustDomain = read('TRUST_DOMAIN', issuer, parseTrustDomain, 'a URI (e.g. https://example.com or spiffe://example.com), at most 200 characters');
  const transactionTokenLifetimeSeconds = read('TXN_TOKEN_LIFETIME_SECONDS', 60, (raw) => integerIn(raw, 1, 300), 'an integer from 1 to 300');
  const jwksRefetchSeconds = read('JWKS_REFETCH_SECONDS', 60, (raw) => integerIn(raw, 1, 3600), 'an integer from 1 to 3600');
  problems.push(...productionSafetyProblems(env, { issuer, databaseUrl, seedDemo }));
  const browserSignIn: BrowserSignInConfig = {
    sessionLifetimeSeconds: read('SESSION_LIFETIME_SECONDS', 8 * 3600, (raw) => integerIn(raw, 60, 90 * 86_400), 'an integer from 60 to 7776000'),
    idTokenLifetimeSeconds: read('ID_TOKEN_LIFETIME_SECONDS', 300, (raw) => integerIn(raw, 30, 86_400), 'an integer from 30 to 86400'),
    viewsDir: read<string | undefined>('INTERACTION_VIEWS_DIR', undefined, (raw) => raw, 'a directory path'),
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    metricsPort, port, host, issuer, databaseUrl, dataDir, seedDemo, logLevel, databasePoolSize, cacheTtlSeconds, verifiedTokenCache, signingAlgorithm,
    rateLimits, trustProxy, maxConcurrentRequests, shutdownDrainSeconds, trustDomain, transactionTokenLifetimeSeconds, jwksRefetchSeconds, browserSignIn, ...keys,
  };
}

function integerIn(raw: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

function parseBoolean(raw: string): boolean | undefined {
  return raw === 'true' ? true : raw === 'false' ? false : undefined;
}

function parseIssuer(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    // RFC 8414 §2: no query or fragment component, not even an empty one (URL reports those as '').
    if (!['http:', 'https:'].includes(url.protocol) || /[?#]/.test(raw)) return undefined;
    return raw.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/** A trust domain names itself with a URI (draft-ietf-oauth-transaction-tokens: the `aud` of its tokens). */
function parseTrustDomain(raw: string): string | undefined {
  return raw.length <= 200 && /^[a-z][a-z0-9+.-]*:[^\s]+$/i.test(raw) ? raw : undefined;
}

function parseDatabaseUrl(raw: string): string | undefined {
  try {
    return ['postgres:', 'postgresql:'].includes(new URL(raw).protocol) ? raw : undefined;
  } catch {
    return undefined;
  }
}
