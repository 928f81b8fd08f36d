import pino, { type Logger } from 'pino';
import type { LogLevel } from '../config/app.config';
import { AuditSink, type AuditEvent } from './audit-event';

/** Audit events as JSON lines on stdout: `{"level":30,"audit":"token.issued",...}`. */
export class PinoAuditSink extends AuditSink {
  private readonly logger: Logger;

  constructor(level: LogLevel, destination?: pino.DestinationStream) {
    super();
    this.logger = pino({ level, base: { kind: 'audit' } }, destination);
  }

  emit({ name, ...fields }: AuditEvent): void {
    this.logger.info({ audit: name, ...fields });
  }
}
