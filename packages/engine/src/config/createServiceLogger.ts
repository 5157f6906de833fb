import pino from 'pino';
import type { Logger } from 'pino';

export interface CreateServiceLoggerOptions {
  /**
   * Buffer writes to stdout (flushed every 4 KiB, on a timer and at exit) instead of one
   * write per line. Long-running processes use it; short-lived tools keep synchronous logs.
   */
  readonly buffered?: boolean;
}

/**
 * Structured JSON logs of one process of the service (`service`: api, keeper). Keys, signatures
 * and bodies are never logged; headers are redacted.
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
      redact: {
        paths: ['req.headers', 'headers', 'body', 'apiKey', 'key', 'hmacKey'],
        remove: true,
      },
    },
    destination,
  );
}
