import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { AuditSink } from './audit-event';
import { PinoAuditSink } from './pino-audit.sink';

/** Provides the `AuditSink`; replace the provider to send events elsewhere. */
@Global()
@Module({
  providers: [{ provide: AuditSink, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new PinoAuditSink(config.logLevel) }],
  exports: [AuditSink],
})
export class AuditModule {}
