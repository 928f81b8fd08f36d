import { ArgumentsHost, Catch, ExceptionFilter, Inject, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import type { DatabaseOutageMonitor } from '../database/database-outage.monitor';
import { isDatabaseUnavailable } from './database-unavailable';
import { renderOAuthError, toOAuthError } from './oauth-error-renderer';

/** Renders every error thrown by a route as an OAuth error (RFC 6749 §5.2, RFC 6750 §3; docs/errors.md). */
@Catch()
export class OAuthExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('OAuth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** Database outages are logged once per start and end there, not once per refused request. */
    private readonly outages?: Pick<DatabaseOutageMonitor, 'refused'>,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const error = toOAuthError(exception);
    if (this.outages && isDatabaseUnavailable(exception)) this.outages.refused(exception);
    else if (error.status >= 500) logFault(this.logger, error.code, exception);
    renderOAuthError(host.switchToHttp().getResponse<FastifyReply>(), error, this.config.issuer);
  }
}

/** Logs a fault's kind and message, never the request: messages of our code carry no secrets. */
export function logFault(logger: Logger, code: string, exception: unknown): void {
  const detail = exception instanceof Error ? `${exception.name}: ${exception.message}` : typeof exception;
  logger.error(`${code}: ${detail}`, exception instanceof Error ? exception.stack : undefined);
}
