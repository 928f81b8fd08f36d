import { registerAs } from './config-slice';

/** `ISSUER`: the `iss` of every token and the base of every endpoint (RFC 8414 §2). */
export const issuerConfig = registerAs('issuer', (config) => ({ issuer: config.issuer }));

/** Lifetimes set by the operator (docs/configuration.md); an access token's comes from its client. */
export const tokenLifetimes = registerAs('tokenLifetimes', (config) => ({
  idTokenSeconds: config.browserSignIn.idTokenLifetimeSeconds,
  transactionTokenSeconds: config.transactionTokenLifetimeSeconds,
  signInSessionSeconds: config.browserSignIn.sessionLifetimeSeconds,
}));

/** `TRUST_DOMAIN`: the `aud` of transaction tokens (docs/transaction-tokens.md). */
export const trustDomainConfig = registerAs('trustDomain', (config) => ({ trustDomain: config.trustDomain }));

/** `GRANT_TIMEOUT_SECONDS`: how long the token endpoint waits for a grant validator (docs/grants.md#what-the-token-endpoint-enforces). */
export const grantTimeoutConfig = registerAs('grantTimeout', (config) => ({ seconds: config.grantTimeoutSeconds ?? 10 }));

/** `CACHE_TTL_SECONDS`: how long stores serve clients, resources, users and keys from memory. */
export const cacheConfig = registerAs('cache', (config) => ({ ttlSeconds: config.cacheTtlSeconds }));

/** `INTERACTION_VIEWS_DIR`: the operator's sign-in pages; undefined: the built-in ones (docs/browser-sign-in.md). */
export const interactionViews = registerAs('interactionViews', (config) => ({ viewsDir: config.browserSignIn.viewsDir }));

/** `METRICS_PORT` on `HOST`; an undefined port serves no metrics. */
export const metricsListenerConfig = registerAs('metricsListener', (config) => ({ host: config.host, port: config.metricsPort }));

/** `LOG_LEVEL` of the service's log and audit trail. */
export const loggingConfig = registerAs('logging', (config) => ({ logLevel: config.logLevel }));

/** `DATABASE_URL` (unset: the embedded database in `DATA_DIR`), `DATABASE_POOL_SIZE` and `SEED_DEMO` (docs/configuration.md#database). */
export const databaseConfig = registerAs('database', (config) => ({
  databaseUrl: config.databaseUrl,
  databasePoolSize: config.databasePoolSize,
  dataDir: config.dataDir,
  seedDemo: config.seedDemo,
}));

/** `SIGNING_ALG`, the `KEY_ROTATION_*` periods, and `CACHE_TTL_SECONDS`: how often every instance reloads the keys (docs/configuration.md#signing-keys). */
export const signingKeysConfig = registerAs('signingKeys', (config) => ({
  signingAlgorithm: config.signingAlgorithm,
  keyRotation: config.keyRotation,
  cacheTtlSeconds: config.cacheTtlSeconds,
}));

/** Where the key-encryption key comes from: `KEY_ENCRYPTION_KEY[_PREVIOUS]`, else `DATABASE_URL` or `DATA_DIR` (docs/configuration.md#signing-keys). */
export const keyEncryptionConfig = registerAs('keyEncryption', (config) => ({
  keyEncryptionKey: config.keyEncryptionKey,
  previousKeyEncryptionKeys: config.previousKeyEncryptionKeys,
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
}));

/** Limits, windows and the shared counter store (`REDIS_URL`) of throttling (docs/throttling.md). */
export const throttlingConfig = registerAs('throttling', (config) => config.rateLimits);

/** `VERIFIED_TOKEN_CACHE_*`: access tokens that passed validation (docs/tokens.md#validation). */
export const verifiedTokenCacheConfig = registerAs('verifiedTokenCache', (config) => config.verifiedTokenCache);

/** `JWKS_REFETCH_SECONDS`: how often a remote JWK Set is fetched again for an unknown `kid` (docs/trusted-issuers.md). */
export const jwkSetsConfig = registerAs('jwkSets', (config) => ({ jwksRefetchSeconds: config.jwksRefetchSeconds }));

/** `DPOP_REQUIRE_NONCE` (docs/dpop.md). */
export const dpopConfig = registerAs('dpop', (config) => ({ requireNonce: config.dpopRequireNonce }));
/** Self-registered clients (docs/agents.md), with the issuer: an http issuer allows loopback http documents. */
export const agentsConfig = registerAs('agents', (config) => ({ ...config.agents, issuer: config.issuer }));

/** Signals delivery (docs/signals.md#delivery), with the issuer: an http issuer allows loopback http receivers. */
export const signalsConfig = registerAs('signals', (config) => ({ ...config.signals, issuer: config.issuer }));

export const CONFIG_SLICES = [
  signalsConfig,
  agentsConfig,
  issuerConfig,
  tokenLifetimes,
  trustDomainConfig,
  cacheConfig,
  interactionViews,
  metricsListenerConfig,
  loggingConfig,
  databaseConfig,
  signingKeysConfig,
  keyEncryptionConfig,
  throttlingConfig,
  verifiedTokenCacheConfig,
  jwkSetsConfig,
  dpopConfig,
  grantTimeoutConfig,
];
