import type { FastifyServerOptions } from 'fastify';
import type { LoggerOptions } from 'pino';
import type { LogLevel } from '../config/app.config';

/**
 * How the request log keeps credentials out: the query string and path parameters are dropped
 * from the URL (they may carry tokens), path segments that look like tokens are masked, and no header or body is logged
 * (docs/client-authentication.md). The root logger applies it to every record, not only Fastify's.
 */
export const requestLogRedaction: Pick<LoggerOptions, 'redact' | 'serializers'> = {
  redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body'], censor: '[redacted]' },
  serializers: {
    req: (request: { method: string; url: string; ip?: string }) => ({
      method: request.method,
      path: loggablePath(request.url),
      remoteAddress: request.ip,
    }),
    res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
  },
};

// A JWT (three base64url segments) or a long opaque string: what a token or handle looks like.
const TOKEN_LIKE_SEGMENT = /^(?:[\w-]+\.[\w-]+\.[\w-]*|[\w~.%+=-]{32,})$/;

// The query string, and path parameters (RFC 3986 §3.3: `;` in a segment, as in `/connect/authorize;code=…`).
const PARAMETERS = /[?;#]/;

/**
 * The path of a request URL as logged: nothing from the first `?` or `;` on, and any segment that
 * looks like a token (`/connect/userinfo/<jwt>`) replaced, since a client may put one there by
 * mistake (RFC 6750 §5.3).
 */
export function loggablePath(url: string): string {
  const path = url.split(PARAMETERS, 1)[0];
  return path
    .split('/')
    .map((segment) => (TOKEN_LIKE_SEGMENT.test(segment) ? '[redacted]' : segment))
    .join('/');
}

/**
 * Fastify gives each request a child logger that stamps its records with the request id. When the
 * level hides the request log (above info), a request's records go through the root logger instead:
 * creating a child per request would cost more than the few warnings it could tag.
 */
export function requestChildLoggerFactory(level: LogLevel): FastifyServerOptions['childLoggerFactory'] {
  const requestLogVisible = level === 'info' || level === 'debug' || level === 'trace';
  return requestLogVisible ? undefined : (logger) => logger;
}
