import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A quote fake's HTTP side: one GET path, its query recorded, answered now or after `slowMs`. */
export interface QuoteServerParameters {
  readonly path: string;
  /** The body of a 404 (another path or method), in the fake API's error shape. */
  readonly notFound: unknown;
  /** Read per request: answer after `slowMs` (the `slow` fault mode). */
  readonly isSlow: () => boolean;
  readonly slowMs: number;
  /** Every request to `path`, by its query parameters. */
  readonly requests: Record<string, string>[];
  answer(query: Record<string, string>, send: (status: number, body: unknown) => void): void;
}

export interface QuoteServer {
  readonly url: string;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Starts a quote fake's server on 127.0.0.1 (random port); `close` drops open sockets. */
export async function startQuoteServer(parameters: QuoteServerParameters): Promise<QuoteServer> {
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method !== 'GET' || url.pathname !== parameters.path) {
      sendJson(res, 404, parameters.notFound);
      return;
    }
    const query = Object.fromEntries(url.searchParams);
    parameters.requests.push(query);
    const answer = () =>
      parameters.answer(query, (status, body) => {
        if (!res.destroyed) sendJson(res, status, body);
      });
    if (parameters.isSlow()) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) answer();
      }, parameters.slowMs);
      timers.add(timer);
    } else {
      answer();
    }
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address && typeof address !== 'string' ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
