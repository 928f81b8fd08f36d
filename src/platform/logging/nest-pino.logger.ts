import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';
import { StartupFailure } from './startup-failure';

/**
 * Nest's own start-up chatter (a line per module and per route, 60 or more): debug, not info, so
 * that a start logs what an operator needs (docs/operations.md#logs).
 */
const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * Nest's `LoggerService` over the root pino logger: `new Logger('Keys').warn(text)` becomes
 * `{"level":40,"context":"Keys","msg":text}` on the request log's destination, and LOG_LEVEL
 * decides for Nest's messages as for every other record (`log` is pino's info, `verbose` its trace).
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes `(message, stack?, context?)`; a lone string is the context unless it reads as a stack. */
  error(message: unknown, ...params: unknown[]): void {
    const stack = params.length > 1 || isStack(params[0]) ? params.shift() : undefined;
    this.write('error', message, params, typeof stack === 'string' ? stack : undefined);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write(FRAMEWORK_CONTEXTS.has(String(params.at(-1))) ? 'debug' : 'info', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[], stack?: string): void {
    if (!this.logger.isLevelEnabled(level)) return;
    // Nest appends the context (the name given to `new Logger(...)`) as the last parameter.
    const context = typeof params.at(-1) === 'string' ? params.pop() : undefined;
    const fields = { context, stack, details: params.length > 0 ? params : undefined };
    if (message instanceof StartupFailure) this.logger[level]({ context }, message.message);
    else if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'string') this.logger[level](fields, message);
    else this.logger[level]({ ...fields, message });
  }
}

function isStack(value: unknown): boolean {
  return typeof value === 'string' && /\n\s+at /.test(value);
}
