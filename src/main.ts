import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from './app.factory';
import { ConfigError, loadConfig, type AppConfig } from './config/app.config';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const app = await createApp(config);
  closeOnSignals(app);
  await app.listen({ port: config.port, host: config.host });
  app.getHttpAdapter().getInstance().log.info(`Tollgate listening on ${config.host}:${config.port}, issuer ${config.issuer}`);
}

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (bounded), close the
 * pool and exit 0.
 */
function closeOnSignals(app: NestFastifyApplication): void {
  const shutdown = (signal: string) => {
    app.getHttpAdapter().getInstance().log.info(`${signal} received, shutting down`);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error('Tollgate failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
