import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuditSink } from '../audit/audit-event';
import { requireFormBody } from '../http/form-request';
import { singleParameter } from '../oauth/form';
import { OAuthError } from '../oauth/oauth-error';
import { ClientAuthThrottle } from '../rate-limit/client-auth.throttle';
import type { AuthenticatedClient } from './client';
import { ClientAuthenticator } from './client-authenticator';
import { readClientCredentials } from './client-credentials.reader';

type ClientAuthenticatedRequest = FastifyRequest & { authenticatedClient?: AuthenticatedClient };

/** Authenticates the calling client, within the rate limits, and attaches it to the request. */
@Injectable()
export class ClientAuthGuard implements CanActivate {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly throttle: ClientAuthThrottle,
    private readonly audit: AuditSink,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ClientAuthenticatedRequest>();
    const body = requireFormBody(request);
    const credentials = readClientCredentials(request.headers.authorization, body);
    const clientId = credentials?.clientId ?? (singleParameter(body, 'client_id') || undefined);
    await this.throttle.admit(request.ip, clientId);
    try {
      request.authenticatedClient = await this.authenticator.authenticate(credentials);
    } catch (error) {
      if (error instanceof OAuthError && error.code === 'invalid_client') {
        this.audit.emit({ name: 'client.authentication_failed', clientId: clientId?.slice(0, 200), address: request.ip, error: error.description ?? error.code });
        await this.throttle.failed(request.ip, clientId);
      }
      throw error;
    }
    await this.throttle.succeeded(request.ip, request.authenticatedClient.client.clientId);
    return true;
  }
}

/** The client that `ClientAuthGuard` authenticated. */
export const CurrentClient = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<ClientAuthenticatedRequest>().authenticatedClient,
);

/** The client's address: Fastify's `request.ip`, which honours TRUST_PROXY (docs/throttling.md). */
export const ClientAddress = createParamDecorator((_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<FastifyRequest>().ip);
