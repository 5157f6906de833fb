import pino from 'pino';
import type { Logger } from 'pino';

export interface CreateLoggerOptions {
  /**
   * Buffer writes to stdout (flushed every 4 KiB, on a timer and at exit) instead of one
   * write per line. The server uses it; short-lived tools keep synchronous logs.
   */
  readonly buffered?: boolean;
}

/** Structured JSON logs. Keys, signatures and bodies are never logged; headers are redacted. */
export function createLogger(level: string, options: CreateLoggerOptions = {}): Logger {
  const destination = options.buffered
    ? pino.destination({ dest: 1, sync: false, minLength: 4096 })
    : undefined;
  if (destination) {
    const flush = setInterval(() => destination.flush(), 1000);
    flush.unref();
    process.once('exit', () => destination.flushSync());
  }
  const logger = pino(
    {
      level,
      base: { service: 'api' },
      redact: {
        paths: ['req.headers', 'headers', 'body', 'apiKey', 'key', 'hmacKey'],
        remove: true,
      },
    },
    destination,
  );
  return logger;
}
