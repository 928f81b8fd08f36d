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

/** `CACHE_TTL_SECONDS`: how long stores serve clients, resources, users and keys from memory. */
export const cacheConfig = registerAs('cache', (config) => ({ ttlSeconds: config.cacheTtlSeconds }));

/** `INTERACTION_VIEWS_DIR`: the operator's sign-in pages; undefined: the built-in ones (docs/browser-sign-in.md). */
export const interactionViews = registerAs('interactionViews', (config) => ({ viewsDir: config.browserSignIn.viewsDir }));

/** `METRICS_PORT` on `HOST`; an undefined port serves no metrics. */
export const metricsListenerConfig = registerAs('metricsListener', (config) => ({ host: config.host, port: config.metricsPort }));

export const CONFIG_SLICES = [issuerConfig, tokenLifetimes, trustDomainConfig, cacheConfig, interactionViews, metricsListenerConfig];
