import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from './app.factory';
import { ConfigError, loadConfig, type AppConfig } from './platform/config/app.config';
import { ShutdownState } from './endpoints/health/shutdown-state';

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
  closeOnSignals(app, config.shutdownDrainSeconds);
  await app.listen({ port: config.port, host: config.host });
  app.getHttpAdapter().getInstance().log.info(`Tollgate listening on ${config.host}:${config.port}, issuer ${config.issuer}`);
}

/**
 * SIGTERM: report not ready and keep serving for SHUTDOWN_DRAIN_SECONDS (balancers stop sending),
 * then stop accepting connections, let in-flight requests finish, close the pool and exit 0 — all
 * within a bound. SIGINT (Ctrl-C) skips the drain.
 */
function closeOnSignals(app: NestFastifyApplication, drainSeconds: number): void {
  const fastify = app.getHttpAdapter().getInstance();
  const shutdown = async (signal: NodeJS.Signals) => {
    const drainMs = signal === 'SIGTERM' ? drainSeconds * 1000 : 0;
    fastify.log.info(`${signal} received, shutting down`);
    setTimeout(() => process.exit(1), drainMs + SHUTDOWN_GRACE_MS).unref();
    app.get(ShutdownState).draining = true;
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    // The HTTP server first: requests still running need the pool that app.close() ends.
    await fastify.close();
    await app.close();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () =>
      shutdown(signal).then(
        () => process.exit(0),
        () => process.exit(1),
      ),
    );
  }
}

main().catch((error: unknown) => {
  console.error('Tollgate failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
