import type { ValueProvider } from '@nestjs/common';
import type { AuditSink } from './audit-event';

/** The DI token of an embedding application's `AuditSink` (`AppOptions.auditSink`). */
export const AUDIT_SINK_OPTION = Symbol('AUDIT_SINK_OPTION');

/** The option's provider for the configuration module, none when the default sink is wanted. */
export function auditSinkOption(sink?: AuditSink): ValueProvider[] {
  return sink ? [{ provide: AUDIT_SINK_OPTION, useValue: sink }] : [];
}
