import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '../database/database-pool.stats';

/**
 * The Prometheus metrics of one instance. Labels carry only bounded values: route patterns,
 * registered grant types and RFC error codes — never client ids, secrets or tokens. With several
 * workers (WORKERS) the primary's scrape sums the workers' series, except where a gauge names its
 * `aggregator`: Redis counts as in use only if every worker uses it, a key's age is the oldest seen.
 */
export class TollgateMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'tollgate_http_requests_total',
    help: 'HTTP requests by endpoint, grant type and outcome (success or the OAuth error code)',
    labelNames: ['endpoint', 'grant_type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly latency = new Histogram({
    name: 'tollgate_http_request_duration_seconds',
    help: 'HTTP request latency by endpoint',
    labelNames: ['endpoint'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly tokensIssued = new Counter({
    name: 'tollgate_tokens_issued_total',
    help: 'Access tokens issued by grant type',
    labelNames: ['grant_type'] as const,
    registers: [this.registry],
  });

  readonly throttleStoreFallbacks = new Counter({
    name: 'tollgate_throttle_redis_fallbacks_total',
    help: "Times throttling lost Redis and fell back to counting in this instance's memory",
    registers: [this.registry],
  });

  readonly throttleStoreShared = new Gauge({
    name: 'tollgate_throttle_redis_in_use',
    help: '1 while throttling counters are shared through Redis, 0 while counted in memory (fallback or no REDIS_URL)',
    aggregator: 'min',
    registers: [this.registry],
  });

  readonly tokenExchanges = new Counter({
    name: 'tollgate_token_exchanges_total',
    help: 'RFC 8693 token exchanges by requested token type (access_token, txn_token, other) and outcome (success or the OAuth error code)',
    labelNames: ['requested_token_type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly clientAuthentications = new Counter({
    name: 'tollgate_client_authentications_total',
    help: 'Client authentications by method (basic, post, private_key_jwt, kubernetes_service_account, spiffe_jwt_svid, none; missing when none was sent) and outcome',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });

  /** What the token layer reports (`observeTokens`); nothing until it does. */
  private tokens: TokenProbes = { signingKeyCreatedAt: () => undefined, verifiedTokenCache: () => ({ hits: 0, misses: 0 }) };

  constructor(options: { pool: () => PoolStats | undefined }) {
    const tokens = () => this.tokens;
    collectDefaultMetrics({ register: this.registry, prefix: 'tollgate_' });
    new Counter({
      name: 'tollgate_verified_token_cache_lookups_total',
      help: 'Access-token validations by whether the verified-token cache answered them (hit) or the signature was checked (miss)',
      labelNames: ['result'] as const,
      registers: [this.registry],
      collect() {
        const { hits, misses } = tokens().verifiedTokenCache();
        this.reset();
        this.inc({ result: 'hit' }, hits);
        this.inc({ result: 'miss' }, misses);
      },
    });
    new Gauge({
      name: 'tollgate_signing_key_age_seconds',
      help: 'Age of the key new tokens are signed with',
      aggregator: 'max',
      registers: [this.registry],
      collect() {
        const createdAt = tokens().signingKeyCreatedAt();
        if (createdAt) this.set((Date.now() - createdAt.getTime()) / 1000);
      },
    });
    new Gauge({
      name: 'tollgate_db_pool_connections',
      help: 'Database pool connections by state',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const stats = options.pool();
        if (!stats) return;
        this.set({ state: 'total' }, stats.totalCount);
        this.set({ state: 'idle' }, stats.idleCount);
        this.set({ state: 'waiting' }, stats.waitingCount);
      },
    });
  }

  /** The gauges of the token layer (signing-key age, verified-token cache), read at every scrape. */
  observeTokens(probes: TokenProbes): void {
    this.tokens = probes;
  }
}

export interface TokenProbes {
  readonly signingKeyCreatedAt: () => Date | undefined;
  readonly verifiedTokenCache: () => { readonly hits: number; readonly misses: number };
}
