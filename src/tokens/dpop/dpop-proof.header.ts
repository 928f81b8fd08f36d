import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { DpopHeader } from './dpop-proof.verifier';

/** The request's `DPoP` header (RFC 9449 §4.1), as sent. */
export const DpopProof = createParamDecorator(
  (_: unknown, context: ExecutionContext): DpopHeader => context.switchToHttp().getRequest<FastifyRequest>().headers.dpop,
);
