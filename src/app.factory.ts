import { ConsoleLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule, type AppOptions } from './app.module';
import type { AppConfig } from './config/app.config';
import { GrantValidatorRegistry } from './grants/grant-validator.registry';
import { limitConcurrentRequests } from './http/concurrency-limit';
import { OAuthExceptionFilter } from './http/oauth-exception.filter';
import { nestLogLevels, requestLoggerOptions } from './http/request-logger';
import { TollgateMetrics } from './metrics/metrics';
import { recordRequestMetrics } from './metrics/request-metrics.hook';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** Builds the application exactly as `main.ts` serves it; tests use it too. */
export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    logger: requestLoggerOptions(config.logLevel),
    routerOptions: { maxParamLength: 200 },
    requestTimeout: 30_000,
    connectionTimeout: 30_000,
    keepAliveTimeout: 5_000,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options), adapter, {
    // One JSON line per record, like the request and audit logs.
    logger: new ConsoleLogger({ json: true, logLevels: nestLogLevels(config.logLevel) }),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  limitConcurrentRequests(fastify, config.maxConcurrentRequests, config.issuer);
  const grants = app.get(GrantValidatorRegistry);
  recordRequestMetrics(fastify, app.get(TollgateMetrics), () => grants.grantTypes());
  // Also catches Fastify's own errors (body too large, unparsable body): Nest routes them here.
  app.useGlobalFilters(new OAuthExceptionFilter(config));
  await app.init();
  await fastify.ready();
  return app;
}
