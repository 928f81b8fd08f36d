import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Type } from '@nestjs/common';
import type { Logger as PinoLogger } from 'pino';
import type { AppConfig } from './platform/config/app.config';
import { BootDataSources } from './platform/database/boot-data-sources';
import { loadExtensions } from './grants/extension-loader';
import { handleClientError } from './platform/http/client-error-handler';
import { ProbeAwareLogController } from './platform/logging/probe-log-controller';
import { requestChildLoggerFactory } from './platform/logging/request-logger';
import type { AuditSink } from './platform/audit/audit-event';
import { PinoAuditSink } from './platform/audit/pino-audit.sink';
import { NestPinoLogger } from './platform/logging/nest-pino.logger';
import { createRootLogger } from './platform/logging/root-logger';
import { MAX_BODY_BYTES } from './protocol/form';
import type { TollgateMigration } from './platform/database/database.config';
import type { GrantModule } from './grants/grant-modules';
import type { UserDirectory } from './identity/users/user-directory';
import { TollgateModule, type ExtraGrants } from './tollgate.module';

export interface AppOptions {
  /** Grants served besides the built-in ones (tests, embedding applications), with the modules they need. */
  readonly extraGrants?: ExtraGrants;
  /** Nest modules that provide and export grant validators: an application's own modules, container extensions (docs/extending.md). */
  readonly grantModules?: readonly GrantModule[];
  /** Where audit events go; through `logger` by default. */
  readonly auditSink?: AuditSink;
  /** The pino logger every log record goes through; JSON lines on stdout at LOG_LEVEL by default. */
  readonly logger?: PinoLogger;
  /** The users to sign in, instead of Tollgate's own table (docs/users.md). */
  readonly userDirectory?: Type<UserDirectory>;
  /** The application's migrations (e.g. its clients, from `tollgate client:migration`), applied with Tollgate's. */
  readonly migrations?: readonly TollgateMigration[];
}

// Node enforces the header and request timeouts only when it checks its connections (every 30 s by
// default, so a 10 s limit held up to 40 s): checking every second keeps them within a second.
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

function trustProxySetting({ trustProxy }: AppConfig): string[] | ((address: string, hop: number) => boolean) | false {
  if (trustProxy === undefined) return false;
  // A hop count, as Fastify itself compiles a numeric trustProxy.
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return [...trustProxy];
}

/**
 * Builds the application exactly as `main.ts` serves it, with the extensions of
 * `TOLLGATE_EXTENSIONS` (docs/extending.md); tests use it too.
 */
export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestFastifyApplication> {
  const extensions = await loadExtensions(config.extensions);
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
  const { extraGrants, userDirectory, migrations, grantModules = [] } = options;
  const grants = [...grantModules, ...extensions];
  const module = TollgateModule.forRoot({ config, grants, userDirectory, auditSink, migrations }, { dataSources, extraGrants });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  }).catch(async (error: unknown) => {
    await dataSources.abandon();
    throw error;
  });
  // Tollgate's Fastify hooks and error filter come with the module (fastify-setup.ts, tollgate.module.ts).
  const fastify = app.getHttpAdapter().getInstance();
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
