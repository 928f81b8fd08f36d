import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace-node';

// SpanKind.SERVER, without loading @opentelemetry/api to read it.
const SERVER_KIND = 1;

/** Attributes that may carry what a client sent (a query string holds codes, tokens, hints), whoever recorded them. */
const DROPPED = new Set(['url.query', 'db.postgresql.values', 'http.target', 'http.url']);
const DROPPED_PREFIXES = ['http.request.header.', 'http.response.header.', 'db.query.parameter.'];

/**
 * The last word on what leaves the process (docs/operations.md#tracing): whatever an instrumentation
 * records by default or in a later version, spans are exported without a query string, user info or
 * fragment in a URL, without the path of an incoming request (`http.route` has its template), without
 * request or response headers or query parameters, and without any error message (a driver's message
 * may quote a value the client sent): a status keeps its code, an exception event its type.
 */
export class RedactingSpanExporter implements SpanExporter {
  constructor(private readonly next: SpanExporter) {}

  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    this.next.export(spans.map(redactedSpan), done);
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush?.() ?? Promise.resolve();
  }
}

/** The span as exported: its own fields and methods, with these three read from the redacted copies. */
export function redactedSpan(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    attributes: { value: redactedAttributes(span.attributes, span.kind === SERVER_KIND) },
    events: { value: span.events.map(redactedEvent) },
    status: { value: { code: span.status.code } },
  }) as ReadableSpan;
}

export function redactedAttributes(attributes: Attributes, incoming: boolean): Attributes {
  const kept: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (DROPPED.has(name) || DROPPED_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    if (incoming && name === 'url.path') continue;
    kept[name] = name === 'url.full' && typeof value === 'string' ? withoutSecrets(value) : value;
  }
  return kept;
}

function redactedEvent(event: TimedEvent): TimedEvent {
  if (event.name !== 'exception') return event;
  const type = event.attributes?.['exception.type'];
  return { ...event, attributes: type === undefined ? {} : { 'exception.type': type } };
}

/** Scheme, host, port and path only. */
function withoutSecrets(url: string): string {
  if (!URL.canParse(url)) return '';
  const { origin, pathname } = new URL(url);
  return `${origin}${pathname}`;
}
