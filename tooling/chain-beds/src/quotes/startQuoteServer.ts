import type { ServerResponse } from 'node:http';
import { startQuoteFakeServer } from './startQuoteFakeServer';

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
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A one-GET-path quote fake on the shared quote fake server (random port on 127.0.0.1). */
export async function startQuoteServer(parameters: QuoteServerParameters): Promise<QuoteServer> {
  const server = await startQuoteFakeServer((later) => (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method !== 'GET' || url.pathname !== parameters.path) {
      sendJson(res, 404, parameters.notFound);
      return;
    }
    const query = Object.fromEntries(url.searchParams);
    parameters.requests.push(query);
    const answer = () => parameters.answer(query, (status, body) => sendJson(res, status, body));
    if (parameters.isSlow()) later(parameters.slowMs, answer);
    else answer();
  });
  return { url: server.origin, close: () => server.close() };
}
