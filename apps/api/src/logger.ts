import pino from 'pino';
import type { Logger } from 'pino';

/** Structured JSON logs. Keys, signatures and bodies are never logged; headers are redacted. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'api' },
    redact: {
      paths: ['req.headers', 'headers', '*.apiKey', '*.key', '*.hmacKey', 'body'],
      remove: true,
    },
  });
}
