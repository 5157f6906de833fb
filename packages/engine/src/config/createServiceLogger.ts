import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { serializeError } from './serializeError';

export interface CreateServiceLoggerOptions {
  /**
   * Buffer writes to stdout (flushed every 4 KiB, on a timer and at exit) instead of one
   * write per line. Long-running processes use it; short-lived tools keep synchronous logs.
   */
  readonly buffered?: boolean;
  /** Where lines go instead of stdout (tests read what would have been logged). */
  readonly destination?: DestinationStream;
}

/**
 * Structured JSON logs of one process of the service (`service`: api, keeper). Keys, signatures
 * and bodies are never logged; headers are redacted; errors are logged by `serializeError`.
 */
export function createServiceLogger(
  service: string,
  level: string,
  options: CreateServiceLoggerOptions = {},
): Logger {
  const destination = options.buffered
    ? pino.destination({ dest: 1, sync: false, minLength: 4096 })
    : undefined;
  if (destination) {
    const flush = setInterval(() => destination.flush(), 1000);
    flush.unref();
    process.once('exit', () => destination.flushSync());
  }
  return pino(
    {
      level,
      base: { service },
      // Every `err` field, in both processes: no SQL, no parameters, nothing key-shaped.
      serializers: { err: serializeError },
      redact: {
        paths: ['req.headers', 'headers', 'body', 'apiKey', 'key', 'hmacKey'],
        remove: true,
      },
    },
    options.destination ?? destination,
  );
}
