import pino from 'pino';
import type { Logger } from 'pino';

export interface CapturedLogs {
  /** Lines written since the last call (each one JSON log record), and forgets them. */
  take(): string[];
}

/**
 * Sends everything `logger` (and its children) writes, at every level, to memory instead of
 * its destination. The logger keeps its own configuration (redaction, serializers), so what is
 * captured is what production would write.
 */
export function captureLogs(logger: Logger): CapturedLogs {
  let lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = stream;
  logger.level = 'trace';
  return {
    take() {
      const taken = lines;
      lines = [];
      return taken;
    },
  };
}
