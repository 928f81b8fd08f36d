import 'reflect-metadata';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/app.config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const app = await createApp(config);
  app.enableShutdownHooks();
  await app.listen({ port: config.port, host: config.host });
  app.getHttpAdapter().getInstance().log.info(`Tollgate listening on ${config.host}:${config.port}, issuer ${config.issuer}`);
}

main().catch((error: unknown) => {
  console.error('Tollgate failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
