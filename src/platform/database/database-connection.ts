import type { LoggerService } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { StartupFailure } from '../logging/startup-failure';

/** A database that is still starting (a compose file, a cluster) gets this many tries, a second apart. */
export const CONNECT_ATTEMPTS = 4;
const RETRY_DELAY_MS = 1000;

/** A PostgreSQL URL as it may be shown in a log: its password, in the user part or a `password` parameter, masked. */
export function maskedDatabaseUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol !== 'postgres:' && parsed?.protocol !== 'postgresql:') return '(not a PostgreSQL URL)';
  if (parsed.password) parsed.password = '****';
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '****');
  return parsed.toString();
}

/** An error's own words: a refused `localhost` is an AggregateError (IPv6 and IPv4) with an empty message. */
function reason(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return [...new Set(error.errors.map(reason))].join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

/** A network error or a server still starting may pass; a refusal by the server (a SQLSTATE such as 28P01, 3D000) will not. */
function mayPass(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return !(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) || code === '57P03';
}

/**
 * Connects, retrying while the database may still be starting. Each failed try is one warning and
 * the last one a `StartupFailure`, both naming `where` (e.g. `DATABASE_URL=…`, password masked) and
 * the driver's reason, never a stack trace.
 */
export async function connectWithRetries<T>(connect: () => Promise<T>, where: string, logger: LoggerService, attempts = CONNECT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect();
    } catch (error) {
      const message = `Cannot connect to the database at ${where}: ${reason(error)}`;
      if (attempt >= attempts || !mayPass(error)) throw new StartupFailure(message, { cause: error });
      logger.warn(`${message} (try ${attempt} of ${attempts}; again in ${RETRY_DELAY_MS / 1000} s)`);
      await sleep(RETRY_DELAY_MS);
    }
  }
}
