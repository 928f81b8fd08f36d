import { OAuthError } from '../../protocol/oauth-error';
import { recordOutcome } from '../metrics/request-metrics.hook';
import { isDatabaseUnavailable } from '../database/database-unavailable';
import type { OAuthRouteOptions } from './oauth-route';

/** Maps anything thrown while serving a request to the OAuth error the client sees. */
export function toOAuthError(exception: unknown): OAuthError {
  if (exception instanceof OAuthError) return exception;
  if (isDatabaseUnavailable(exception)) return OAuthError.temporarilyUnavailable(exception);
  const status = httpStatusOf(exception);
  if (status === 404) return OAuthError.invalidRequest('Not found', { status: 404 });
  if (status === 405) return OAuthError.invalidRequest('Method not allowed', { status: 405 });
  if (status === 413) return OAuthError.invalidRequest('Request body is too large', { status: 413 });
  if (status === 415) return OAuthError.invalidRequest('Unsupported content type', { status: 400 });
  if (status !== undefined && status >= 400 && status < 500) return OAuthError.invalidRequest('Malformed request', { status: 400 });
  return OAuthError.serverError(exception);
}

/** What writing an error response takes of a Fastify reply. */
export interface ErrorReply {
  status(statusCode: number): ErrorReply;
  header(name: string, value: string): ErrorReply;
  type(contentType: string): ErrorReply;
  send(payload: string): ErrorReply;
}

/** Writes the RFC 6749 §5.2 / RFC 6750 §3 error response. The one place errors become HTTP. */
export function renderOAuthError(reply: ErrorReply, error: OAuthError, realm: string, route: OAuthRouteOptions = {}): void {
  recordOutcome(reply, error.code);
  reply.status(error.status).header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  const description = error.description === undefined ? undefined : describable(error.description);
  const challenge = challengeHeader(error, description, realm, route);
  if (challenge) reply.header('WWW-Authenticate', challenge);
  if (error.options.dpopNonce !== undefined) reply.header('DPoP-Nonce', error.options.dpopNonce);
  if (error.options.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.options.retryAfterSeconds));
  const body = description === undefined ? { error: error.code } : { error: error.code, error_description: description };
  void reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

const MAX_DESCRIPTION_LENGTH = 256;

/**
 * RFC 6749 §5.2: error_description holds only %x20-21 / %x23-5B / %x5D-7E. Descriptions may quote
 * what the client sent (a grant type, a parameter name), so anything else is dropped and the
 * length bounded: an error never reflects kilobytes or control characters back.
 */
function describable(description: string): string {
  return description.slice(0, MAX_DESCRIPTION_LENGTH).replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, '');
}

/** RFC 6750 §3.1: the errors a protected resource answers with a Bearer challenge, and their statuses. */
const BEARER_ERRORS: ReadonlySet<string> = new Set(['invalid_request', 'invalid_token', 'insufficient_scope']);
const BEARER_STATUSES: ReadonlySet<number> = new Set([400, 401, 403]);

function bearerChallenged(error: OAuthError, route: OAuthRouteOptions): boolean {
  return route.challenge === 'Bearer' && BEARER_ERRORS.has(error.code) && BEARER_STATUSES.has(error.status);
}

/**
 * The challenge: Basic after Basic client authentication and DPoP under the DPoP scheme (RFC 9449
 * §7.1; the error says so), else Bearer for the RFC 6750 §3.1 errors of a route that declares it
 * (`OAuthRoute`, the only place that decides it); bare when no token was presented.
 */
function challengeHeader(error: OAuthError, description: string | undefined, realm: string, route: OAuthRouteOptions): string | undefined {
  const { scope, algs } = error.options;
  const challenge = error.options.challenge ?? (bearerChallenged(error, route) ? 'Bearer' : undefined);
  if (challenge === 'Basic') return `Basic realm="${quote(realm)}"`;
  if (challenge !== 'Bearer' && challenge !== 'DPoP') return undefined;
  const parts = [`realm="${quote(realm)}"`];
  if (!error.options.bareChallenge) {
    parts.push(`error="${error.code}"`);
    if (description) parts.push(`error_description="${quote(description)}"`);
    if (scope) parts.push(`scope="${quote(scope)}"`);
  }
  if (challenge === 'DPoP' && algs) parts.push(`algs="${quote(algs)}"`);
  return `${challenge} ${parts.join(', ')}`;
}

function quote(value: string): string {
  return value.replace(/[\\"]/g, '\\$&').replace(/[^\x20-\x7E]/g, '');
}

function httpStatusOf(exception: unknown): number | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const candidate = exception as { getStatus?: () => unknown; statusCode?: unknown };
  const status = typeof candidate.getStatus === 'function' ? candidate.getStatus() : candidate.statusCode;
  return typeof status === 'number' ? status : undefined;
}
