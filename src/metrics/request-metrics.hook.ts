import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TollgateMetrics } from './metrics';

const outcomes = new WeakMap<FastifyReply, string>();

/** Records the OAuth error code a reply carried, for the request metrics. */
export function recordOutcome(reply: FastifyReply, errorCode: string): void {
  outcomes.set(reply, errorCode);
}

/** Counts every request and its latency once the response is sent. */
export function recordRequestMetrics(fastify: FastifyInstance, metrics: TollgateMetrics, grantTypes: () => readonly string[]): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const endpoint = request.routeOptions.url ?? 'unmatched';
    const body = request.body as Record<string, unknown> | undefined;
    const requested = typeof body?.grant_type === 'string' ? body.grant_type : undefined;
    const grantType = requested === undefined ? '' : grantTypes().includes(requested) ? requested : 'unsupported';
    const outcome = reply.statusCode < 400 ? 'success' : (outcomes.get(reply) ?? String(reply.statusCode));
    metrics.requests.inc({ endpoint, grant_type: grantType, outcome });
    metrics.latency.observe({ endpoint }, reply.elapsedTime / 1000);
    if (endpoint === '/connect/token' && reply.statusCode === 200 && grantType) metrics.tokensIssued.inc({ grant_type: grantType });
    done();
  });
}
