import { CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards, applyDecorators, createParamDecorator, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AuditSink } from '../../platform/audit/audit-event';
import type { AuthenticatedClient, ClientAuthMethodName } from '../clients/client';
import { requireFormBody } from '../../platform/http/form-request';
import { TollgateMetrics } from '../../platform/metrics/metrics';
import { singleParameter } from '../../protocol/form';
import { OAuthError } from '../../protocol/oauth-error';
import { ClientAuthThrottle } from '../../platform/rate-limit/client-auth.throttle';
import { annotateSpan, inSpan } from '../../platform/tracing/spans';
import type { ClientAuthEndpoint } from './client-auth-method';
import { ClientAuthenticator } from './client-authenticator';

export type ClientAuthenticatedRequest = FastifyRequest & { authenticatedClient?: AuthenticatedClient };

// Metric labels: the client_secret_* methods as basic and post, so that no label or value says "secret".
const METRIC_LABELS: Partial<Record<ClientAuthMethodName, string>> = { client_secret_basic: 'basic', client_secret_post: 'post' };
const metricLabel = (method: ClientAuthMethodName | undefined) => (method === undefined ? 'missing' : (METRIC_LABELS[method] ?? method));

const CLIENT_AUTH_ENDPOINT = Symbol('CLIENT_AUTH_ENDPOINT');

/**
 * The route authenticates its client with `ClientAuthGuard`, as `endpoint` (the audience a client
 * assertion must name and the methods allowed there, docs/client-authentication.md); the guards in
 * `then` run after it, on the authenticated client.
 */
export const AuthenticatesClient = (endpoint: ClientAuthEndpoint, ...then: Type<CanActivate>[]) =>
  applyDecorators(SetMetadata(CLIENT_AUTH_ENDPOINT, endpoint), UseGuards(ClientAuthGuard, ...then));

/** Asks `ClientAuthenticator` who the caller is, within the rate limits, and attaches the client to the request. */
@Injectable()
export class ClientAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ClientAuthenticator,
    private readonly throttle: ClientAuthThrottle,
    private readonly audit: AuditSink,
    private readonly metrics: TollgateMetrics,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return inSpan('tollgate.client_authentication', () => this.authenticate(context));
  }

  private async authenticate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ClientAuthenticatedRequest>();
    const body = requireFormBody(request);
    const endpoint = this.reflector.get<ClientAuthEndpoint | undefined>(CLIENT_AUTH_ENDPOINT, context.getHandler());
    if (endpoint === undefined) throw new Error('ClientAuthGuard guards a route declared with @AuthenticatesClient(endpoint)');
    const attempt = this.authenticator.identify({ authorization: request.headers.authorization, body, endpoint });
    // docs/throttling.md: failures are counted per (address, client_id the request names).
    const clientId = attempt.claimedClientId ?? (singleParameter(body, 'client_id')?.slice(0, 200) || undefined);
    // A public client naming itself has no secret to guess: never refused, never counted, so that a
    // neighbour's failures cannot stop the client's other users (their codes are 128-bit, PKCE-bound).
    const guessable = attempt.method !== 'none';
    if (guessable) await this.throttle.admit(request.ip, clientId);
    try {
      request.authenticatedClient = await attempt.verify();
    } catch (error) {
      if (error instanceof OAuthError && error.code === 'invalid_client') {
        this.metrics.clientAuthentications.inc({ method: metricLabel(attempt.method), outcome: 'failure' });
        this.audit.emit({
          name: 'client.authentication_failed',
          clientId,
          method: attempt.method,
          address: request.ip,
          error: error.description ?? error.code,
        });
        if (guessable) await this.throttle.failed(request.ip, clientId);
      }
      throw error;
    }
    this.metrics.clientAuthentications.inc({ method: metricLabel(request.authenticatedClient.method), outcome: 'success' });
    annotateSpan({ 'tollgate.client_auth_method': request.authenticatedClient.method, 'tollgate.client_id': request.authenticatedClient.client.clientId });
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
