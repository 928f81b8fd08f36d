import type { FastifyInstance } from 'fastify';
import { OAuthError } from '../oauth/oauth-error';
import { renderOAuthError } from './oauth-error-renderer';

/**
 * Caps the requests one instance serves at once: past the cap a request is answered 503 with
 * Retry-After at once, so a flood queues at the load balancer, not in this process's memory.
 */
export function limitConcurrentRequests(fastify: FastifyInstance, maxConcurrent: number, realm: string): void {
  let inFlight = 0;
  // A response emits 'close' once, finished or aborted; one shared listener, no closure per request.
  const release = () => inFlight--;
  fastify.addHook('onRequest', (request, reply, done) => {
    if (inFlight >= maxConcurrent) {
      renderOAuthError(reply, new OAuthError('temporarily_unavailable', 'the server is busy; retry later', { status: 503, retryAfterSeconds: 1 }), realm);
      return;
    }
    inFlight++;
    reply.raw.on('close', release);
    done();
  });
}
