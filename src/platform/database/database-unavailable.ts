const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
// PostgreSQL SQLSTATE (PostgreSQL docs, appendix A): class 08 (connection exception), class 53
// (insufficient resources: too many connections, out of memory, disk full), 57014 (a statement
// cancelled, by statement_timeout or an operator), 57P01–57P05 (terminated: pg_terminate_backend,
// shutdown, cannot connect now, idle-session timeout), 25P03 (terminated: idle-in-transaction timeout).
const SQLSTATE = /^(08...|53...|57014|57P0[1-5]|25P03)$/;
// "Query read timeout": pg's query_timeout, a database that stopped answering (frozen, or a network
// black hole). "Not currently accepting connections": a database closed to connections (55000).
const POOL_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|connection is insecure|Client has encountered a connection error|Client was closed and is not queryable|Query read timeout|the database system is (starting up|shutting down)|is not currently accepting connections/i;

/** True when an error means the database cannot serve now (unreachable, refusing, overloaded), so the request may succeed on retry. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Object && depth < 5; depth++) {
    const { code, message, driverError, cause } = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && POOL_MESSAGES.test(message)) return true;
    current = driverError ?? cause;
  }
  return false;
}

// A connection's socket error, which can reach TypeORM's query logger as text, without its code.
const SOCKET_ERROR = /\b(read|write|connect) (ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EHOSTUNREACH)\b/;

/**
 * For an error known to come from one of our database queries (TypeORM's logger): unavailable, or a
 * socket error told only by its text. Not for errors of unknown origin: a grant's own failing
 * connection to elsewhere is not our database's outage.
 */
export function isQueryConnectionLost(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  return SOCKET_ERROR.test(typeof error === 'string' ? error : error instanceof Error ? error.message : '');
}
