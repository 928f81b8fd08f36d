import { createRequire } from 'node:module';
import type { FastifyReply, FastifyRequest } from 'fastify';

// The class of the Fastify copy that Nest's adapter runs: Fastify accepts a logController only if it is an instance of it.
const { LogController } = createRequire(require.resolve('@nestjs/platform-fastify'))('fastify') as typeof import('fastify');

const PROBE_PATHS: ReadonlySet<string> = new Set(['/health/live', '/health/ready']);

/** A liveness or readiness probe: asked every few seconds by every orchestrator, never by a client. */
export function isProbe(url: string): boolean {
  return PROBE_PATHS.has(url.split('?', 1)[0]);
}

/**
 * Fastify's request log with the probes' lines at debug: at info they would be most of the log
 * (docs/operations.md#logs). Every other request, and a probe that errs, is logged as Fastify does.
 */
export class ProbeAwareLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (isProbe(request.url)) request.log.debug({ req: request }, 'incoming request');
    else super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!error && isProbe(request.url)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else super.requestCompleted(error, request, reply, metadata);
  }
}
