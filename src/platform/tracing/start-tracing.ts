import type { Env } from '../config/environment';
import { tracingSettings } from './tracing-settings';

export interface Tracing {
  /** Exports the spans still pending; at shutdown, after the application has closed. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing when the OTEL_* variables ask for it (docs/operations.md#tracing), and
 * otherwise loads nothing of it. Called before the application is loaded, so that the instrumented
 * modules (node:http, pg) are patched as they are first required.
 */
export async function startTracing(env: Env): Promise<Tracing | undefined> {
  const settings = tracingSettings(env);
  if (settings === undefined) return undefined;
  const [{ registerTracerProvider }, { OTLPTraceExporter }] = await Promise.all([
    import('./tracer-provider.js'),
    settings.protocol === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  // The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and the TLS files itself.
  const { shutdown } = registerTracerProvider(new OTLPTraceExporter(), { serviceName: settings.defaultServiceName });
  return { shutdown };
}
