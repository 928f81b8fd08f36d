import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { isQueryConnectionLost } from './database-unavailable';

/**
 * TypeORM's failed and slow queries through Nest's JSON logger, never with their parameters:
 * those carry usernames, client ids and token hashes (docs/client-authentication.md: no secret in a log). TypeORM's
 * own console logger prints them.
 */
export class TypeOrmQueryLogger implements TypeOrmLogger {
  private readonly logger = new Logger('TypeORM');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string): void {
    // An unreachable database fails every query: DatabaseOutageMonitor logs the outage once instead.
    if (isQueryConnectionLost(error)) return;
    this.logger.error(`query failed: ${typeof error === 'string' ? error : error.message} -- ${query}`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow query (${time} ms): ${query}`);
  }

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }
}
