import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { OAuthError } from '../../protocol/oauth-error';

/** What Tollgate's own spans need once tracing is on; type-only imports, so that nothing is loaded when it is off. */
export interface ActiveTracing {
  readonly tracer: Tracer;
  readonly activeSpan: () => Span | undefined;
}

let tracing: ActiveTracing | undefined;

/** Turns Tollgate's own spans on (`startTracing`, tests) or off again (undefined). */
export function useTracing(active: ActiveTracing | undefined): void {
  tracing = active;
}

export function isTracing(): boolean {
  return tracing !== undefined;
}

// SpanStatusCode.ERROR, without loading @opentelemetry/api to read it.
const ERROR_STATUS = 2;

/**
 * Runs `run` in a span named `name` (a fixed, low-cardinality name) when tracing is on; otherwise
 * just runs it. A thrown error ends the span with its kind only: `error.type` is the OAuth error code
 * or the error's class, never its message, which may quote what the client sent. An OAuth error
 * below 500 is the client's, not a fault: the span keeps an unset status.
 */
export function inSpan<T>(name: string, run: () => T, attributes?: Attributes): T {
  if (tracing === undefined) return run();
  return tracing.tracer.startActiveSpan(name, { attributes }, (span) => {
    let result: T;
    try {
      result = run();
    } catch (error) {
      endFailed(span, error);
      throw error;
    }
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (value: unknown) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        endFailed(span, error);
        throw error;
      },
    ) as T;
  });
}

/** Adds attributes to the span in progress (nothing when tracing is off). Never a secret: see docs/operations.md#tracing. */
export function annotateSpan(attributes: Attributes): void {
  tracing?.activeSpan()?.setAttributes(attributes);
}

/**
 * Names the incoming request's span (from the http instrumentation) after its route, `POST /connect/token`,
 * with `http.route`: the template, never the path or query the client sent. Nothing is added when off.
 */
export function nameRequestSpansByRoute(fastify: FastifyInstance): void {
  if (tracing === undefined) return;
  const active = tracing;
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const span = active.activeSpan();
    if (span !== undefined && route !== undefined) span.setAttribute('http.route', route).updateName(`${request.method} ${route}`);
    done();
  });
}

function endFailed(span: Span, error: unknown): void {
  if (error instanceof OAuthError) {
    span.setAttribute('error.type', error.code);
    if (error.status >= 500) span.setStatus({ code: ERROR_STATUS });
  } else {
    span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown');
    span.setStatus({ code: ERROR_STATUS });
  }
  span.end();
}
