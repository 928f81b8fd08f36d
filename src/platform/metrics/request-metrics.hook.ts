import type { FastifyInstance } from 'fastify';
import type { TollgateMetrics } from './metrics';

const outcomes = new WeakMap<object, string>();

/** Records the OAuth error code a reply carried, for the request metrics. */
export function recordOutcome(reply: object, errorCode: string): void {
  outcomes.set(reply, errorCode);
}

interface RequestSeries {
  readonly requests: { inc(): void };
  readonly latency: { observe(seconds: number): void };
  readonly tokensIssued?: { inc(): void };
  readonly exchanges?: { inc(): void };
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const TOKEN_TYPE_PREFIX = 'urn:ietf:params:oauth:token-type:';
// Bounded labels: a requested type is one of these, or `other`.
const EXCHANGED_TYPES = new Set(['access_token', 'txn_token']);

/** RFC 8693 §2.1: an omitted `requested_token_type` asks for an access token. */
function requestedTokenTypeLabel(body: Record<string, unknown> | undefined): string {
  const requested = body?.requested_token_type;
  if (requested === undefined) return 'access_token';
  const name = typeof requested === 'string' && requested.startsWith(TOKEN_TYPE_PREFIX) ? requested.slice(TOKEN_TYPE_PREFIX.length) : '';
  return EXCHANGED_TYPES.has(name) ? name : 'other';
}

/** Counts every request and its latency once the response is sent. */
export function recordRequestMetrics(fastify: FastifyInstance, metrics: TollgateMetrics, grantTypes: ReadonlySet<string>): void {
  // Label values are bounded (route patterns, grant types, error codes), so each combination's
  // series is looked up once instead of hashing the labels on every request.
  const series = new Map<string, RequestSeries>();
  const seriesFor = (endpoint: string, grantType: string, outcome: string, issued: boolean, exchanged?: string): RequestSeries => {
    const key = `${endpoint} ${grantType} ${outcome} ${issued} ${exchanged}`;
    let found = series.get(key);
    if (!found) {
      found = {
        requests: metrics.requests.labels({ endpoint, grant_type: grantType, outcome }),
        latency: metrics.latency.labels({ endpoint }),
        tokensIssued: issued ? metrics.tokensIssued.labels({ grant_type: grantType }) : undefined,
        exchanges: exchanged === undefined ? undefined : metrics.tokenExchanges.labels({ requested_token_type: exchanged, outcome }),
      };
      series.set(key, found);
    }
    return found;
  };

  fastify.addHook('onResponse', (request, reply, done) => {
    const endpoint = request.routeOptions.url ?? 'unmatched';
    const body = request.body as Record<string, unknown> | undefined;
    const requested = typeof body?.grant_type === 'string' ? body.grant_type : undefined;
    const grantType = requested === undefined ? '' : grantTypes.has(requested) ? requested : 'unsupported';
    const outcome = reply.statusCode < 400 ? 'success' : (outcomes.get(reply) ?? String(reply.statusCode));
    const issued = endpoint === '/connect/token' && reply.statusCode === 200 && grantType !== '';
    const exchanged = endpoint === '/connect/token' && grantType === TOKEN_EXCHANGE ? requestedTokenTypeLabel(body) : undefined;
    const { requests, latency, tokensIssued, exchanges } = seriesFor(endpoint, grantType, outcome, issued, exchanged);
    requests.inc();
    latency.observe(reply.elapsedTime / 1000);
    tokensIssued?.inc();
    exchanges?.inc();
    done();
  });
}
