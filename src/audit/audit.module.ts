import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { AuditSink } from './audit-event';
import { PinoAuditSink } from './pino-audit.sink';

/** Provides the `AuditSink`: the given one, or JSON lines on stdout. */
@Global()
@Module({})
export class AuditModule {
  static register(sink?: AuditSink): DynamicModule {
    const provider = sink
      ? { provide: AuditSink, useValue: sink }
      : { provide: AuditSink, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new PinoAuditSink(config.logLevel) };
    return { module: AuditModule, providers: [provider], exports: [AuditSink] };
  }
}
