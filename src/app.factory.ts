import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule, type AppOptions } from './app.module';
import type { AppConfig } from './config/app.config';
import { limitConcurrentRequests } from './http/concurrency-limit';
import { OAuthExceptionFilter } from './http/oauth-exception.filter';
import { nestLogLevels, requestLoggerOptions } from './http/request-logger';

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
    logger: nestLogLevels(config.logLevel),
    abortOnError: false,
  });
  limitConcurrentRequests(app.getHttpAdapter().getInstance(), config.maxConcurrentRequests, config.issuer);
  // Also catches Fastify's own errors (body too large, unparsable body): Nest routes them here.
  app.useGlobalFilters(new OAuthExceptionFilter(config));
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
