import { Module } from '@nestjs/common';
import type { ConfigType } from '../config/config-slice';
import { loggingConfig } from '../config/config.slices';
import { AuditSink } from './audit-event';
import { AUDIT_SINK_OPTION } from './audit-sink.option';
import { createRootLogger } from '../logging/root-logger';
import { PinoAuditSink } from './pino-audit.sink';

/** Provides the `AuditSink`: the application's (`AppOptions.auditSink`, the shared logger in `createApp`), or JSON lines on stdout (operator commands). */
@Module({
  providers: [
    {
      provide: AuditSink,
      inject: [loggingConfig.KEY, { token: AUDIT_SINK_OPTION, optional: true }],
      useFactory: ({ logLevel }: ConfigType<typeof loggingConfig>, sink?: AuditSink) => sink ?? new PinoAuditSink(createRootLogger(logLevel)),
    },
  ],
  exports: [AuditSink],
})
export class AuditModule {}
