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
 * is reported as on the other routes (logged once); over a budget of its address (a 429), a 429 page
 * saying which. Any other error is rendered as on the other routes.
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
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const retryAfterSeconds = error.options.retryAfterSeconds ?? 5;
    // 429: this address asked too much (its description says what); 503: the service cannot answer now.
    if (error.status === 429)
      void this.pages.unavailable(reply, retryAfterSeconds, `${capitalized(error.description ?? 'too many requests')}. Please try again later.`, 429);
    else void this.pages.unavailable(reply, retryAfterSeconds);
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
