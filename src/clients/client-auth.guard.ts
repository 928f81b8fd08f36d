import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requireFormBody } from '../http/form-request';
import type { AuthenticatedClient } from './client';
import { ClientAuthenticator } from './client-authenticator';
import { readClientCredentials } from './client-credentials.reader';

type ClientAuthenticatedRequest = FastifyRequest & { authenticatedClient?: AuthenticatedClient };

/** Authenticates the calling client and attaches it to the request. */
@Injectable()
export class ClientAuthGuard implements CanActivate {
  constructor(private readonly authenticator: ClientAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ClientAuthenticatedRequest>();
    const credentials = readClientCredentials(request.headers.authorization, requireFormBody(request));
    request.authenticatedClient = await this.authenticator.authenticate(credentials);
    return true;
  }
}

/** The client that `ClientAuthGuard` authenticated. */
export const CurrentClient = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<ClientAuthenticatedRequest>().authenticatedClient,
);
