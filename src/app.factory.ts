import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Eta } from 'eta';
import { AppModule, type AppOptions } from './app.module';
import type { AppConfig } from './config/app.config';
import { BootDataSources } from './database/boot-data-sources';
import { DatabaseOutageMonitor } from './database/database-outage.monitor';
import { GrantValidatorRegistry } from './grants/grant-validator.registry';
import { RedirectOrigins } from './clients/redirect-origins';
import { handleClientError } from './http/client-error-handler';
import { allowRedirectOrigins } from './http/cors';
import { limitConcurrentRequests } from './http/concurrency-limit';
import { stampArrivalTime } from './http/request-arrival';
import { sendStrictTransportSecurity } from './http/strict-transport-security';
import { OAuthExceptionFilter } from './http/oauth-exception.filter';
import { viewsDirectory } from './interaction/views-directory';
import { ProbeAwareLogController } from './logging/probe-log-controller';
import { requestChildLoggerFactory } from './logging/request-logger';
import { PinoAuditSink } from './audit/pino-audit.sink';
import { NestPinoLogger } from './logging/nest-pino.logger';
import { createRootLogger } from './logging/root-logger';
import { TollgateMetrics } from './metrics/metrics';
import { MAX_BODY_BYTES } from './oauth/form';
import { recordRequestMetrics } from './metrics/request-metrics.hook';

const HEADERS_TIMEOUT_MS = 10_000;
// Node enforces the header and request timeouts only when it checks its connections (every 30 s by
// default, so a 10 s limit held up to 40 s): checking every second keeps them within a second.
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

function trustProxySetting({ trustProxy }: AppConfig): string[] | ((address: string, hop: number) => boolean) | false {
  if (trustProxy === undefined) return false;
  // A hop count, as Fastify itself compiles a numeric trustProxy.
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return [...trustProxy];
}

/** Builds the application exactly as `main.ts` serves it; tests use it too. */
export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestFastifyApplication> {
  // One pino logger for Fastify's request log, Nest's messages and the audit trail.
  const logger = options.logger ?? createRootLogger(config.logLevel);
  const adapter = new FastifyAdapter({
    bodyLimit: MAX_BODY_BYTES,
    loggerInstance: logger,
    childLoggerFactory: requestChildLoggerFactory(config.logLevel),
    logController: new ProbeAwareLogController(),
    routerOptions: { maxParamLength: 200 },
    requestTimeout: 30_000,
    connectionTimeout: 30_000,
    keepAliveTimeout: 5_000,
    clientErrorHandler: handleClientError,
    // request.ip: the socket peer, or the first untrusted X-Forwarded-For entry behind a trusted proxy (docs/throttling.md).
    trustProxy: trustProxySetting(config),
    http: { connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS },
  });
  const dataSources = new BootDataSources();
  const auditSink = options.auditSink ?? new PinoAuditSink(logger);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, { ...options, auditSink }, dataSources), adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  }).catch(async (error: unknown) => {
    await dataSources.abandon();
    throw error;
  });
  const fastify = app.getHttpAdapter().getInstance();
  // Node waits 60 s for a request's headers by default; a slow client gets far less (slow loris).
  fastify.server.headersTimeout = HEADERS_TIMEOUT_MS;
  sendStrictTransportSecurity(fastify, config.issuer);
  stampArrivalTime(fastify);
  limitConcurrentRequests(fastify, config.maxConcurrentRequests, config.issuer);
  const redirectOrigins = app.get(RedirectOrigins);
  allowRedirectOrigins(fastify, (origin) => redirectOrigins.has(origin));
  // Grant validators are registered at boot and never change.
  recordRequestMetrics(fastify, app.get(TollgateMetrics), new Set(app.get(GrantValidatorRegistry).grantTypes()));
  // The sign-in pages' templates (docs/browser-sign-in.md); Eta escapes every <%= %> output.
  const templates = viewsDirectory(config.browserSignIn.viewsDir);
  await app.register(import('@fastify/view'), { engine: { eta: new Eta({ views: templates }) }, templates, production: true });
  // Also catches Fastify's own errors (body too large, unparsable body): Nest routes them here.
  app.useGlobalFilters(new OAuthExceptionFilter(config.issuer, app.getHttpAdapter(), app.get(DatabaseOutageMonitor)));
  try {
    await app.init();
    await fastify.ready();
  } catch (error) {
    // A failed boot must not leave timers and pooled connections behind.
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
