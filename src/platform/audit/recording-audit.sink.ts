import { AuditSink, type AuditEvent } from './audit-event';

/** Keeps events in memory: for tests, and for embedders that forward them in batches. */
export class RecordingAuditSink extends AuditSink {
  readonly events: AuditEvent[] = [];

  emit(event: AuditEvent): void {
    this.events.push(event);
  }
}
