import { Catch, Inject, Injectable, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { DatabaseOutageMonitor } from '../../platform/database/database-outage.monitor';
import { isDatabaseUnavailable } from '../../platform/database/database-unavailable';
import { OAuthExceptionFilter } from '../../platform/http/oauth-exception.filter';
import { toOAuthError } from '../../platform/http/oauth-error-renderer';
import { PageRenderer } from './page.renderer';

/**
 * The browser pages' errors: when the service cannot answer now (the database unavailable,
 * docs/errors.md), a person gets a 503 page with Retry-After instead of JSON, and a database outage
 * is reported as on the other routes (logged once); any other error is rendered as there.
 */
@Catch()
@Injectable()
export class PageExceptionFilter implements ExceptionFilter {
  private readonly others: OAuthExceptionFilter;

  constructor(
    @Inject(issuerConfig.KEY) config: ConfigType<typeof issuerConfig>,
    host: HttpAdapterHost,
    private readonly outages: DatabaseOutageMonitor,
    private readonly pages: PageRenderer,
  ) {
    this.others = new OAuthExceptionFilter(config.issuer, host.httpAdapter, outages);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const error = toOAuthError(exception);
    if (error.code !== 'temporarily_unavailable') return this.others.catch(exception, host);
    if (isDatabaseUnavailable(exception)) this.outages.refused(exception);
    void this.pages.unavailable(host.switchToHttp().getResponse<FastifyReply>(), error.options.retryAfterSeconds ?? 5);
  }
}
