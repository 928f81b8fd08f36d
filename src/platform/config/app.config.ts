import { readAgentsConfig, type AgentsConfig } from './agents.config';
import { AppEnvironment, type LogLevel, type SigningAlgorithm } from './app.environment';
import { validateEnvironment, type Env } from './environment';
import { readKeyConfig, type KeyConfig } from './key.config';
import { overrideWarnings, productionSafetyProblems } from './production-safety';
import { readThrottlingConfig, type RateLimitConfig, type TrustProxy } from './throttling.config';
import { readSignalsConfig, type SignalsConfig } from './signals.config';
import { readWorkersConfig, type WorkersConfig } from './workers.config';

export { SIGNING_ALGORITHMS, type LogLevel, type SigningAlgorithm } from './app.environment';
export type { RateLimitConfig, TrustProxy } from './throttling.config';
export type { AgentsConfig, DynamicRegistrationMode } from './agents.config';
export type { WorkersConfig } from './workers.config';
export type { SignalsConfig } from './signals.config';

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
  /** `WORKERS`: processes serving the port; read by main.ts only (docs/operations.md#several-cores-workers). */
  readonly workers: WorkersConfig;
  /** `TRUST_DOMAIN`: the `aud` of transaction tokens (docs/transaction-tokens.md); the issuer by default. */
  readonly trustDomain: string;
  /** `TXN_TOKEN_LIFETIME_SECONDS`: how long a transaction token lives, at most 300 s. */
  readonly transactionTokenLifetimeSeconds: number;
  /** A remote JWK Set is fetched again for an unknown `kid` at most this often (docs/trusted-issuers.md). */
  readonly jwksRefetchSeconds: number;
  /** `DPOP_REQUIRE_NONCE`: every DPoP proof must carry a server nonce (RFC 9449 §8; docs/dpop.md). */
  readonly dpopRequireNonce: boolean;
  readonly browserSignIn: BrowserSignInConfig;
  /** Clients that register themselves: metadata documents and dynamic registration (docs/agents.md). */
  readonly agents: AgentsConfig;
  /** Back-channel logout and Shared Signals delivery (docs/signals.md#delivery). */
  readonly signals: SignalsConfig;
  /** `GRANT_TIMEOUT_SECONDS`: how long a grant validator may take before the token endpoint answers 503 (docs/grants.md); 10 by default. */
  readonly grantTimeoutSeconds?: number;
  /** `TOLLGATE_EXTENSIONS`: JavaScript modules whose Nest modules provide grant validators (docs/extending.md). */
  readonly extensions?: readonly string[];
  /** An override of a production refusal in effect (ALLOW_INSECURE_ISSUER): main.ts logs each as a warning at every start. */
  readonly startupWarnings?: readonly string[];
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

export const DEFAULT_GRANT_TIMEOUT_SECONDS = 10;

/** DI token for the parsed configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
  }
}

/**
 * Validates the environment as `AppEnvironment`, `KeyEnvironment` and `ThrottlingEnvironment`
 * (class-validator) and applies the defaults of docs/configuration.md. Every bad variable is
 * reported at once, in one ConfigError.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const { variables: v, problems } = validateEnvironment(AppEnvironment, env);
  const port = v.PORT ?? 5000;
  const issuer = v.ISSUER?.replace(/\/+$/, '') ?? `http://localhost:${port}`;
  const databaseUrl = v.DATABASE_URL;
  const seedDemo = v.SEED_DEMO === undefined ? databaseUrl === undefined : v.SEED_DEMO === 'true';
  const keys = readKeyConfig(env, databaseUrl, problems);
  const { rateLimits, trustProxy } = readThrottlingConfig(env, problems);
  const agents = readAgentsConfig(env, problems);
  const workers = readWorkersConfig(env, problems);
  const signals = readSignalsConfig(env, problems);
  problems.push(...productionSafetyProblems(env, { issuer, databaseUrl, seedDemo, keyPropagationSeconds: keys.keyRotation.propagationSeconds }));
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host: v.HOST ?? '0.0.0.0',
    issuer,
    databaseUrl,
    dataDir: v.DATA_DIR ?? './.data',
    seedDemo,
    startupWarnings: overrideWarnings(env, issuer),
    logLevel: v.LOG_LEVEL ?? 'info',
    databasePoolSize: v.DATABASE_POOL_SIZE ?? 10,
    cacheTtlSeconds: v.CACHE_TTL_SECONDS ?? 5,
    verifiedTokenCache: { maxEntries: v.VERIFIED_TOKEN_CACHE_SIZE ?? 10_000, maxAgeSeconds: v.VERIFIED_TOKEN_CACHE_SECONDS ?? 300 },
    signingAlgorithm: v.SIGNING_ALG ?? 'RS256',
    ...keys,
    rateLimits,
    trustProxy,
    maxConcurrentRequests: v.MAX_CONCURRENT_REQUESTS ?? 1024,
    shutdownDrainSeconds: v.SHUTDOWN_DRAIN_SECONDS ?? 0,
    metricsPort: v.METRICS_PORT,
    workers,
    trustDomain: v.TRUST_DOMAIN ?? issuer,
    transactionTokenLifetimeSeconds: v.TXN_TOKEN_LIFETIME_SECONDS ?? 60,
    jwksRefetchSeconds: v.JWKS_REFETCH_SECONDS ?? 60,
    grantTimeoutSeconds: v.GRANT_TIMEOUT_SECONDS ?? DEFAULT_GRANT_TIMEOUT_SECONDS,
    dpopRequireNonce: v.DPOP_REQUIRE_NONCE === 'true',
    browserSignIn: {
      sessionLifetimeSeconds: v.SESSION_LIFETIME_SECONDS ?? 8 * 3600,
      idTokenLifetimeSeconds: v.ID_TOKEN_LIFETIME_SECONDS ?? 300,
      viewsDir: v.INTERACTION_VIEWS_DIR,
    },
    agents,
    signals,
    extensions: v.TOLLGATE_EXTENSIONS?.split(',').map((path) => path.trim()) ?? [],
  };
}
