/** Long unbroken runs of key alphabets (hex, base58, base64): keys, but also addresses and ids. */
const LONG_TOKEN = /[A-Za-z0-9+/=_-]{43,}/g;
const MAX_MESSAGE = 300;

const maskMessage = (message: string) =>
  message.slice(0, MAX_MESSAGE).replace(LONG_TOKEN, '[redacted]');

/**
 * Errors of the database layer (Prisma's `Invalid … invocation` messages carry the call's
 * arguments; the driver's carry statements and parameters): their messages are never logged.
 */
function isDatabaseError(error: Error): boolean {
  const fields = error as unknown as Record<string, unknown>;
  return (
    error.name.startsWith('Prisma') ||
    error.name === 'DatabaseError' ||
    'query' in fields ||
    'parameters' in fields ||
    'severity' in fields
  );
}

/**
 * How an error is logged: its name, its code, a message with every long key-alphabet token
 * masked (none at all for database errors) and the stack's frames without the message line.
 * SQL statements, parameters and request values never reach the log.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (typeof error === 'string') return maskMessage(error);
  if (!(error instanceof Error))
    return error === undefined || error === null ? error : { type: typeof error };
  const code = (error as { code?: unknown }).code;
  const database = isDatabaseError(error);
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .map((line) => line.trim());
  return {
    type: error.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(database ? {} : { message: maskMessage(error.message) }),
    ...(frames.length > 0 ? { stack: frames } : {}),
    ...(error.cause !== undefined && depth < 3
      ? { cause: serializeError(error.cause, depth + 1) }
      : {}),
  };
}
