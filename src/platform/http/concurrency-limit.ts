import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAuthError } from '../../protocol/oauth-error';
import { renderOAuthError } from './oauth-error-renderer';

/** Liveness answers whatever the load: a busy instance is alive, and must not be restarted for it. */
const NEVER_REFUSED = new Set(['/health/live']);

/**
 * Caps the requests one instance serves at once: past the cap a request is answered 503 with
 * Retry-After at once, so a flood queues at the load balancer, not in this process's memory.
 * A request counts only once its body has been read (preValidation): a client trickling its body
 * holds its own socket, bounded by the request timeout, and never a place under the cap.
 */
export function limitConcurrentRequests(fastify: FastifyInstance, maxConcurrent: number, realm: string): void {
  let inFlight = 0;
  // A response emits 'close' once, finished or aborted; one shared listener, no closure per request.
  const release = () => inFlight--;
  fastify.addHook('preValidation', (request, reply, done) => {
    if (isNeverRefused(request)) return done();
    if (inFlight >= maxConcurrent) {
      renderOAuthError(reply, new OAuthError('temporarily_unavailable', 'the server is busy; retry later', { status: 503, retryAfterSeconds: 1 }), realm);
      return;
    }
    inFlight++;
    reply.raw.on('close', release);
    done();
  });
}

function isNeverRefused(request: FastifyRequest): boolean {
  return NEVER_REFUSED.has(request.routeOptions.url ?? '');
}
