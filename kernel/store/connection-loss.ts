/**
 * Losing a database connection is an outage to ride out, not a reason to end the process. The PostgreSQL driver
 * emits 'error' on a client whose server went away; an EventEmitter 'error' without a listener throws, and pg-pool
 * listens only on idle clients (a client checked out for a transaction has no listener of the pool's). So every pool
 * the project opens gets a listener on the pool and on each client it creates, for the client's whole life: the
 * query in flight fails with the error (its transaction is rolled back by the server) and the pool drops the client.
 * {@link isConnectionLoss} tells such failures apart from errors of the statement itself, so callers can answer
 * 503 and retry instead of reporting a fault of the service.
 */

/** What a pg-like pool offers for listening (pg.Pool). */
interface ListenablePool {
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'connect', listener: (client: { on(event: 'error', listener: (error: Error) => void): unknown }) => void): unknown;
}

/**
 * Attaches error listeners to a pg pool and to every client it connects, reporting each lost connection to
 * `onLost` (a log line); nothing is thrown.
 */
export function guardPostgresPool(pool: ListenablePool, onLost: (error: Error) => void): void {
  pool.on('error', onLost);
  pool.on('connect', (client) => {
    client.on('error', onLost);
  });
}

// Operating-system errors of a socket that cannot reach or lost its server.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
  'EAI_AGAIN',
  // mysql2's fatal connection errors
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
]);

// PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down).
const POSTGRES_SERVER_GONE = new Set(['57P01', '57P02', '57P03']);

// What pg and pg-pool say, without a code, when the socket closed or no connection came in time.
const LOST_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/i;

/**
 * True when `error` says the database cannot be reached or the connection was lost (not that a statement was wrong):
 * socket errors, PostgreSQL's connection exception class 08 and shutdown codes, and pg's own words for a closed socket.
 */
export function isConnectionLoss(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || POSTGRES_SERVER_GONE.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof message === 'string' && LOST_MESSAGES.test(message)) return true;
  // net.connect to a host with several addresses rejects with an AggregateError of each attempt's error
  if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isConnectionLoss(inner, depth + 1))) return true;
  return cause !== undefined && isConnectionLoss(cause, depth + 1);
}
