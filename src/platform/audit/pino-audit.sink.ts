import type { Logger } from 'pino';
import { AuditSink, type AuditEvent } from './audit-event';

/** Audit events as JSON lines through the root logger: `{"level":30,"kind":"audit","audit":"token.issued",...}`. */
export class PinoAuditSink extends AuditSink {
  private readonly logger: Logger;

  constructor(rootLogger: Logger) {
    super();
    this.logger = rootLogger.child({ kind: 'audit' });
  }

  emit(event: AuditEvent): void {
    // Checked first: the record is not built when LOG_LEVEL hides it (above info).
    if (!this.logger.isLevelEnabled('info')) return;
    const { name, ...fields } = event;
    this.logger.info({ audit: name, ...fields });
  }
}
