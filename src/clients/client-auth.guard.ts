import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuditSink } from '../audit/audit-event';
import { requireFormBody } from '../http/form-request';
import type { ClientCredentials } from '../oauth/basic-credentials';
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
    await this.throttle.admitAddress(request.ip);
    let credentials: ClientCredentials | undefined;
    try {
      credentials = readClientCredentials(request.headers.authorization, requireFormBody(request));
      if (credentials) await this.throttle.admitClientId(credentials.clientId);
      request.authenticatedClient = await this.authenticator.authenticate(credentials);
    } catch (error) {
      if (error instanceof OAuthError && error.code === 'invalid_client') {
        this.audit.emit({ name: 'client.authentication_failed', clientId: credentials?.clientId.slice(0, 200), address: request.ip, error: error.description ?? error.code });
        await this.throttle.authenticationFailed(request.ip, credentials?.clientId);
      }
      throw error;
    }
    await this.throttle.authenticated(request.authenticatedClient.client.clientId);
    return true;
  }
}

/** The client that `ClientAuthGuard` authenticated. */
export const CurrentClient = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<ClientAuthenticatedRequest>().authenticatedClient,
);
