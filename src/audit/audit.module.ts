import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { AuditSink } from './audit-event';
import { AUDIT_SINK_OPTION } from './audit-sink.option';
import { PinoAuditSink } from './pino-audit.sink';

/** Provides the `AuditSink`: the embedding application's (`AppOptions.auditSink`), or JSON lines on stdout. */
@Module({
  providers: [
    {
      provide: AuditSink,
      inject: [APP_CONFIG, { token: AUDIT_SINK_OPTION, optional: true }],
      useFactory: (config: AppConfig, sink?: AuditSink) => sink ?? new PinoAuditSink(config.logLevel),
    },
  ],
  exports: [AuditSink],
})
export class AuditModule {}
