import { CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards, applyDecorators, createParamDecorator, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedClient } from '../clients/client';
import { requireFormBody } from '../../platform/http/form-request';
import { inSpan } from '../../platform/tracing/spans';
import type { ClientAuthEndpoint } from './client-auth-method';
import { ClientAuthentication } from './client-authentication';

export type ClientAuthenticatedRequest = FastifyRequest & { authenticatedClient?: AuthenticatedClient };

const CLIENT_AUTH_ENDPOINT = Symbol('CLIENT_AUTH_ENDPOINT');

/**
 * The route authenticates its client with `ClientAuthGuard`, as `endpoint` (the audience a client
 * assertion must name and the methods allowed there, docs/client-authentication.md); the guards in
 * `then` run after it, on the authenticated client.
 */
export const AuthenticatesClient = (endpoint: ClientAuthEndpoint, ...then: Type<CanActivate>[]) =>
  applyDecorators(SetMetadata(CLIENT_AUTH_ENDPOINT, endpoint), UseGuards(ClientAuthGuard, ...then));

/** Hands the request's credentials to `ClientAuthentication` and attaches the client it authenticated to the request. */
@Injectable()
export class ClientAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authentication: ClientAuthentication,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return inSpan('tollgate.client_authentication', () => this.authenticate(context));
  }

  private async authenticate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ClientAuthenticatedRequest>();
    const endpoint = this.reflector.get<ClientAuthEndpoint | undefined>(CLIENT_AUTH_ENDPOINT, context.getHandler());
    if (endpoint === undefined) throw new Error('ClientAuthGuard guards a route declared with @AuthenticatesClient(endpoint)');
    const body = requireFormBody(request);
    request.authenticatedClient = await this.authentication.authenticate({ authorization: request.headers.authorization, body, endpoint, address: request.ip });
    return true;
  }
}

/** The client that `ClientAuthGuard` authenticated. */
export const CurrentClient = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<ClientAuthenticatedRequest>().authenticatedClient,
);

/** The client's address: Fastify's `request.ip`, which honours TRUST_PROXY (docs/throttling.md). */
export const ClientAddress = createParamDecorator((_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<FastifyRequest>().ip);
