import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createServiceLogger } from '@yieldrouter/engine';

/** The API's logger at `info`, writing its lines to `lines` (what a test searches for secrets). */
export function memoryLogger(): { readonly logger: Logger; readonly lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createServiceLogger('api', 'info', { destination }), lines };
}
