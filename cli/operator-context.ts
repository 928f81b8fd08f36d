import type { INestApplicationContext, ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig, type AppConfig } from '../src/platform/config/app.config';
import { ConfigModule } from '../src/platform/config/config.module';
import { DatabaseModule } from '../src/platform/database/database.module';

/**
 * The service's own modules for an operator command, on the service's environment (never seeding
 * demo data). Undefined, with the bad settings written to stderr, when the environment is invalid.
 */
export async function openOperatorContext(
  imports: NonNullable<ModuleMetadata['imports']>,
): Promise<{ app: INestApplicationContext; config: AppConfig } | undefined> {
  let config: AppConfig;
  try {
    config = { ...loadConfig(), seedDemo: false };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
  const app = await NestFactory.createApplicationContext(
    { module: class OperatorCommandModule {}, imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(), ...imports] },
    { logger: ['error', 'warn'] },
  );
  return { app, config };
}
