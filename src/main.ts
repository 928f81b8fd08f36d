import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, loadConfig, type AppConfig } from './platform/config/app.config';
import { ClusterWorker, processRole } from './platform/cluster/cluster-worker';
import { runClusterPrimary } from './platform/cluster/cluster-primary';
import { TollgateMetrics } from './platform/metrics/metrics';
import { ShutdownState } from './endpoints/health/shutdown-state';
import { startTracing, type Tracing } from './platform/tracing/start-tracing';
import { tracingSettings } from './platform/tracing/tracing-settings';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
    // Checked here too, so that a wrong OTEL_* variable stops the primary, not each worker it forks.
    tracingSettings(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const role = processRole(config.workers);
  // WORKERS > 1: the primary forks the workers, each of which goes on below (docs/operations.md#several-cores-workers).
  if (role === 'primary') process.exit(await runClusterPrimary(config, config.shutdownDrainSeconds * 1000 + 2 * SHUTDOWN_GRACE_MS));
  const worker = role === 'worker' ? new ClusterWorker() : undefined;
  // Before the application loads, so that node:http and pg are instrumented as they are first required.
  const tracing = await startTracing(process.env);
  // Loaded here, not by the primary, which needs none of the application (about 30 MB less resident).
  const { createApp } = await import('./app.factory.js');
  const app = await createApp(worker?.appConfig(config) ?? config);
  closeOnSignals(app, config.shutdownDrainSeconds, tracing);
  worker?.serving(app.get(TollgateMetrics).registry);
  await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? new Error(`port ${config.port} on ${config.host} is in use by another process: stop it, or set PORT to a free port (e.g. PORT=5001 npm start)`)
      : error;
  });
  const log = app.getHttpAdapter().getInstance().log;
  if (config.workers.singleProcessReason) log.info(config.workers.singleProcessReason);
  const { port } = app.getHttpServer().address() as { port: number };
  log.info(`Tollgate listening on ${config.host}:${port}, issuer ${config.issuer}`);
  for (const warning of config.startupWarnings ?? []) log.warn(warning);
  if (config.seedDemo) log.info(whatNext(`http://localhost:${port}`));
}

/**
 * With the demo data set (the default on the embedded database): where a new user goes from here.
 * No secret or password, not even a demo one, goes into a log line (test/e2e/no-leaks.e2e-spec.ts).
 */
function whatNext(base: string): string {
  return (
    `Next: a first token with curl -u m2m:<its secret> -d grant_type=client_credentials -d scope=api1 ${base}/connect/token, ` +
    "with the secret of the demo client m2m and the demo users' passwords from docs/demo-data.md; " +
    'the browser sign-in walk-through (as alice) is in README.md, more in docs/walk-throughs.md'
  );
}

/**
 * SIGTERM: report not ready and keep serving for SHUTDOWN_DRAIN_SECONDS (balancers stop sending),
 * then stop accepting connections, let in-flight requests finish, close the pool and exit 0 — all
 * within a bound. SIGINT (Ctrl-C) skips the drain.
 */
function closeOnSignals(app: NestFastifyApplication, drainSeconds: number, tracing: Tracing | undefined): void {
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
    await tracing?.shutdown();
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
