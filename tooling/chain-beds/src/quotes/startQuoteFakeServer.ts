import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A quote fake's HTTP server on 127.0.0.1: its origin, delayed answers, and a clean close. */
export interface QuoteFakeServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Runs `answer` after `ms` unless the server closes first (a fake's `slow` mode). */
export type Later = (ms: number, answer: () => void) => void;

/**
 * Starts the server the quote fakes share: `handler` gets `later` for slow answers; `close`
 * cancels pending answers and drops open connections so a test never hangs on a slow request.
 *
 * @example
 * const server = await startQuoteFakeServer((later) => (req, res) => later(10, () => res.end()));
 */
export async function startQuoteFakeServer(
  handler: (later: Later) => (req: IncomingMessage, res: ServerResponse) => void,
): Promise<QuoteFakeServer> {
  const timers = new Set<NodeJS.Timeout>();
  const later: Later = (ms, answer) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, ms);
    timers.add(timer);
  };
  const server = createServer(handler(later));
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address && typeof address !== 'string' ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
