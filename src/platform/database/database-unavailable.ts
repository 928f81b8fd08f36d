const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
// PostgreSQL SQLSTATE class 08 (connection exception), 57P01–57P03 (shutdown, cannot connect now), 53300 (too many connections).
const SQLSTATE = /^(08...|57P0[1-3]|53300)$/;
// "Query read timeout": pg's query_timeout, a database that stopped answering (frozen, or a network black hole).
const POOL_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|connection is insecure|Client has encountered a connection error|Client was closed and is not queryable|Query read timeout|the database system is (starting up|shutting down)/i;

/** True when an error means the database cannot be reached, so the request may succeed on retry. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Object && depth < 5; depth++) {
    const { code, message, driverError, cause } = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && POOL_MESSAGES.test(message)) return true;
    current = driverError ?? cause;
  }
  return false;
}
