import type { INestApplicationContext, LoggerService, ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig, type AppConfig } from '../src/platform/config/app.config';
import { ConfigModule } from '../src/platform/config/config.module';
import { BootDataSources } from '../src/platform/database/boot-data-sources';
import { DatabaseModule, type SchemaPolicy } from '../src/platform/database/database.module';
import { loadExtensions } from '../src/grants/extension-loader';
import { StartupFailure } from '../src/platform/logging/startup-failure';

/**
 * The service's own modules for an operator command, on the service's environment (never seeding
 * demo data, never applying a migration: by default the schema must be at this build's latest, else
 * the open fails with SchemaBehindError). Undefined, with the bad settings written to stderr, when
 * the environment is invalid. `extensionMigrations`: the build's migrations include those of the
 * files in TOLLGATE_EXTENSIONS, as the service's start has them (`tollgate migrate`).
 */
export async function openOperatorContext(
  imports: NonNullable<ModuleMetadata['imports']>,
  schema: Exclude<SchemaPolicy, 'apply'> = 'require-current',
  { extensionMigrations = false } = {},
): Promise<{ app: INestApplicationContext; config: AppConfig } | undefined> {
  let config: AppConfig;
  try {
    config = { ...loadConfig(), seedDemo: false };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
  const migrations = extensionMigrations ? (await loadExtensions(config.extensions)).flatMap((extension) => extension.migrations) : [];
  const boot = new BootDataSources();
  const app = await NestFactory.createApplicationContext(
    {
      module: class OperatorCommandModule {},
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(boot, migrations, undefined, schema), ...imports],
    },
    // The error that stops the open is the command's to report (cli/tollgate.ts), once and without Nest's stack trace.
    { logger: new OperatorLogger(), abortOnError: false },
  ).catch(async (error: unknown) => {
    await boot.abandon();
    throw error;
  });
  return { app, config };
}

/** Nest's warnings and errors during a command, as plain lines on stderr; its start-up chatter is left out. */
class OperatorLogger implements LoggerService {
  log(): void {}

  warn(message: unknown): void {
    process.stderr.write(`${text(message)}\n`);
  }

  error(message: unknown, ...params: unknown[]): void {
    if (params.at(-1) === 'ExceptionHandler') return;
    process.stderr.write(`${text(message)}\n`);
  }
}

function text(message: unknown): string {
  if (message instanceof StartupFailure) return message.message;
  return message instanceof Error ? (message.stack ?? message.message) : String(message);
}
