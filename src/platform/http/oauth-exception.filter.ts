import { ArgumentsHost, Catch, Logger, type HttpServer } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseOutageMonitor } from '../database/database-outage.monitor';
import { isDatabaseUnavailable } from '../database/database-unavailable';
import { renderOAuthError, toOAuthError } from './oauth-error-renderer';
import { oauthRouteOf } from './oauth-route';

// Routes whose answers are not OAuth's: the probes keep Terminus's bodies, rendered by Nest.
const NON_OAUTH_ROUTES = /^\/health(\/|$)/;

/**
 * Renders errors of the OAuth routes as OAuth errors (RFC 6749 §5.2, RFC 6750 §3; docs/errors.md),
 * including what fails before a route runs (unknown path, unreadable or oversized body). Registered
 * globally because Nest hands those framework errors to global filters only; errors of the other
 * routes go to Nest's own handling.
 */
@Catch()
export class OAuthExceptionFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('OAuth');

  constructor(
    private readonly issuer: string,
    httpAdapter: HttpServer,
    /** Database outages are logged once per start and end there, not once per refused request. */
    private readonly outages?: Pick<DatabaseOutageMonitor, 'refused'>,
  ) {
    super(httpAdapter);
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const route = request.routeOptions?.url;
    if (route !== undefined && NON_OAUTH_ROUTES.test(route)) return super.catch(exception, host);
    const error = toOAuthError(exception);
    if (this.outages && isDatabaseUnavailable(exception)) this.outages.refused(exception);
    else if (error.status >= 500) logFault(this.logger, error.code, exception);
    renderOAuthError(host.switchToHttp().getResponse<FastifyReply>(), error, this.issuer, oauthRouteOf(request));
  }
}

/** Logs a fault's kind and message, never the request: messages of our code carry no secrets. */
export function logFault(logger: Logger, code: string, exception: unknown): void {
  const detail = exception instanceof Error ? `${exception.name}: ${exception.message}` : typeof exception;
  logger.error(`${code}: ${detail}`, exception instanceof Error ? exception.stack : undefined);
}
