import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

const addresses = new AsyncLocalStorage<string>();

/**
 * Runs each request's handler (Nest's guards, pipes and services included) with the request's client
 * address at hand (`request.ip`, which honours TRUST_PROXY), for the code deep below that must count
 * per address what a request makes Tollgate do: fetching a new client metadata document, wherever a
 * client is looked up (docs/agents.md#bounds). Entered in the last hook before the handler, so the
 * body is already read and nothing that awaits in between loses it.
 */
export function rememberClientAddress(fastify: FastifyInstance): void {
  fastify.addHook('preHandler', (request, _reply, done) => addresses.run(request.ip, done));
}

/** The client address of the request being served; undefined outside one (boot, periodic tasks). */
export function currentClientAddress(): string | undefined {
  return addresses.getStore();
}
