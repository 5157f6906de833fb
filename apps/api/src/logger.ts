import type { Logger } from 'pino';
import { createServiceLogger } from '@yieldrouter/engine';
import type { CreateServiceLoggerOptions } from '@yieldrouter/engine';

export type CreateLoggerOptions = CreateServiceLoggerOptions;

/** Structured JSON logs of the API. Keys, signatures and bodies are never logged. */
export function createLogger(level: string, options: CreateLoggerOptions = {}): Logger {
  return createServiceLogger('api', level, options);
}
