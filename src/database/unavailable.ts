import { QueryRunnerAlreadyReleasedError } from 'typeorm';

/**
 * Whether an error means PostgreSQL cannot be reached right now (503, never 500),
 * rather than that a query was wrong: the server shutting down or restarting (57P01 admin
 * shutdown, 57P02 crash shutdown, 57P03 cannot connect now, 57P04 database dropped) or out of
 * connection slots (53300 too many connections: every slot taken, by this service's instances or
 * others), a database or role it cannot log in to (3D000 no such database, 28000 and 28P01 refused
 * authentication: a database dropped or a password changed under the service), connection
 * exceptions (class 08),
 * a refused or reset socket, a connection ended under a query, the pool giving up waiting for
 * a connection, or a transaction's next statement after its connection was lost (TypeORM released
 * the query runner when the connection failed: `QueryRunnerAlreadyReleasedError`). TypeORM wraps
 * the driver's error (`driverError`); the cause chain is followed too.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (UNAVAILABLE_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code)) return true;
    if (NETWORK_CODES.has(e.code)) return true;
  }
  if (error instanceof QueryRunnerAlreadyReleasedError) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(e.message as string)))
    return true;
  // Node's AggregateError of a connection attempt to several addresses (IPv4 and IPv6).
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}

/** SQLSTATEs of a server that cannot serve this connection now (see isDatabaseUnavailable). */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57P04', '53300', '3D000', '28000', '28P01']);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What node-postgres and its pool say when the connection, not the query, failed. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout"
  /timeout exceeded when trying to connect/, // pg-pool connectionTimeoutMillis
  /Client has encountered a connection error and is not queryable/,
  /Connection ended unexpectedly/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];
