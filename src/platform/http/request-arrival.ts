import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const ARRIVED_AT = Symbol('arrivedAt');
type StampedRequest = FastifyRequest & { [ARRIVED_AT]?: number };

/**
 * Stamps every request with the time it arrived, before its body is read and its client
 * authenticated: the refresh grant tells a concurrent use of a token from a later replay by it.
 */
export function stampArrivalTime(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request: StampedRequest, _reply, done) => {
    request[ARRIVED_AT] = Date.now();
    done();
  });
}

/** Epoch milliseconds at which the request arrived (now, for a request that was not stamped). */
export const ArrivedAt = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<StampedRequest>()[ARRIVED_AT] ?? Date.now(),
);
