import type { Logger } from 'pino';
import { AuditSink, type AuditEvent } from './audit-event';

/** Audit events as JSON lines through the root logger: `{"level":30,"kind":"audit","audit":"token.issued",...}`. */
export class PinoAuditSink extends AuditSink {
  private readonly logger: Logger;

  constructor(rootLogger: Logger) {
    super();
    this.logger = rootLogger.child({ kind: 'audit' });
  }

  emit({ name, ...fields }: AuditEvent): void {
    this.logger.info({ audit: name, ...fields });
  }
}
