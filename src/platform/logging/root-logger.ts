import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/app.config';
import { requestLogRedaction } from './request-logger';

/**
 * The service's one pino logger. Nest's messages, Fastify's request log and the audit trail are
 * written through it, so they share its destination (JSON lines on stdout), its level (LOG_LEVEL)
 * and its redaction.
 */
export function createRootLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino({ level, ...requestLogRedaction }, destination);
}
