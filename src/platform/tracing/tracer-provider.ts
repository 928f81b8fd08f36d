import { trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { RedactingSpanExporter } from './redacting-span.exporter';
import { useTracing } from './spans';

/** Requests no one needs a trace of: probes, every few seconds, and the metrics scrape. */
const UNTRACED_PATHS = /^\/(health\/|metrics(\?|$))/;

export interface TracerSetup {
  readonly provider: NodeTracerProvider;
  /** Stops the instrumentations and Tollgate's own spans, exports what is pending, and unregisters. */
  shutdown(): Promise<void>;
}

/**
 * The tracer provider every span goes through, registered globally: W3C Trace Context only (no
 * baggage sent to the hosts Tollgate fetches from), spans exported through `RedactingSpanExporter`
 * (batched; `simple` exports each span as it ends, for tests), and the instrumentations:
 * - http: the incoming request's span, continuing the caller's `traceparent`. Outgoing http is off:
 *   Tollgate fetches with undici, and the OTLP exporter's own requests must not be traced.
 * - pg: one span per query, its text only (parameters never), within a request or delivery only.
 * - undici: every outbound fetch (metadata documents, JWK Sets, signal deliveries), `traceparent` sent.
 */
export function registerTracerProvider(exporter: SpanExporter, { simple = false, serviceName = 'tollgate' } = {}): TracerSetup {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': serviceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const redacting = new RedactingSpanExporter(exporter);
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [simple ? new SimpleSpanProcessor(redacting) : new BatchSpanProcessor(redacting)],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        disableOutgoingRequestInstrumentation: true,
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.test(request.url ?? ''),
      }),
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true, enhancedDatabaseReporting: false }),
      new UndiciInstrumentation(),
    ],
  });
  const tracer = provider.getTracer('tollgate');
  useTracing({ tracer, activeSpan: () => trace.getActiveSpan() });
  return {
    provider,
    async shutdown() {
      useTracing(undefined);
      unregister();
      await provider.shutdown();
      trace.disable();
    },
  };
}
