/**
 * SQLSTATEs of a lost or refused connection: class 08 (connection exception), the server
 * shutting down or ending the session (57P01 admin shutdown, as `pg_terminate_backend` or a
 * fast shutdown sends; 57P02 crash; 57P03 starting up; 57P05 idle session timeout), and no
 * free connection slot (53300).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P05', '53300']);

/**
 * Prisma's codes for the same: P1001 cannot reach, P1002 timed out, P1008 operation timed out,
 * P1017 server closed the connection, P2024 no connection from the pool in time.
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/** Driver adapter error kinds (@prisma/adapter-pg) of a lost or refused connection. */
const ADAPTER_KINDS = new Set([
  'ConnectionClosed',
  'DatabaseNotReachable',
  'SocketTimeout',
  'TooManyConnections',
]);

/** What `pg` and pg-pool throw, without a code, when a connection dies or cannot be had. */
const PG_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/;

/** Socket errors: a database outage only inside an error a database client threw. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

interface ErrorLike {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly severity?: unknown;
  readonly originalCode?: unknown;
  readonly kind?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly meta?: { readonly driverAdapterError?: unknown };
}

const isSqlState = (code: unknown): code is string =>
  typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);

/** Only a database driver says this: the outage is the database's. */
function saysDatabaseOutage(error: ErrorLike): boolean {
  // A PostgreSQL error (`pg`'s DatabaseError carries the server's severity), or one the driver
  // adapter mapped (`originalCode`).
  const sqlState =
    typeof error.severity === 'string' && isSqlState(error.code) ? error.code : error.originalCode;
  if (isSqlState(sqlState) && (sqlState.startsWith('08') || UNAVAILABLE_SQLSTATES.has(sqlState))) {
    return true;
  }
  if (typeof error.code === 'string' && PRISMA_CODES.has(error.code)) return true;
  if (typeof error.kind === 'string' && ADAPTER_KINDS.has(error.kind)) return true;
  return typeof error.message === 'string' && PG_MESSAGES.test(error.message);
}

/** An error Prisma (or its driver adapter) threw: whatever it wraps came from the database. */
const isPrismaError = (error: ErrorLike) =>
  typeof error.name === 'string' &&
  (error.name.startsWith('PrismaClient') || error.name === 'DriverAdapterError');

/** Everything `error` wraps (causes, Prisma's driver adapter error), itself first. */
function* errorChain(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const candidate = next as ErrorLike;
    yield candidate;
    queue.push(candidate.cause, candidate.meta?.driverAdapterError);
    if (next instanceof AggregateError) queue.push(...(next.errors as unknown[]));
  }
}

/**
 * True when an error from a database client says the connection is lost or cannot be had
 * (driver messages, SQLSTATEs, Prisma codes, or a socket error the client passed on).
 */
export function isConnectionLoss(error: unknown): boolean {
  for (const candidate of errorChain(error)) {
    if (saysDatabaseOutage(candidate)) return true;
    if (typeof candidate.code === 'string' && SOCKET_CODES.has(candidate.code)) return true;
  }
  return false;
}

/** The database could not be reached or dropped the connection; `cause` is the driver's error. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  constructor(options: { cause: unknown }) {
    super('the database is unavailable', options);
  }
}

/**
 * True when a database call failed because the database cannot be reached or dropped the
 * connection (restart, failover, `pg_terminate_backend`, no free slot): an outage to answer
 * with 503 and retry, not a bug. A bare socket error (a refused RPC or Redis connection) counts
 * only inside an error a database client threw, so it is never taken for a database outage.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let fromDatabase = false;
  for (const candidate of errorChain(error)) {
    if (candidate.name === 'DatabaseUnavailableError' || saysDatabaseOutage(candidate)) return true;
    fromDatabase ||= isPrismaError(candidate);
    if (fromDatabase && typeof candidate.code === 'string' && SOCKET_CODES.has(candidate.code)) {
      return true;
    }
  }
  return false;
}
