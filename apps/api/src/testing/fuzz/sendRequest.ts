import http from 'node:http';
import type { FuzzRequest } from './fuzzRequest';

export interface FuzzResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** What became of a request: an answer, no answer in time, or a broken connection. */
export type FuzzOutcome =
  | { readonly kind: 'response'; readonly response: FuzzResponse }
  | { readonly kind: 'timeout'; readonly ms: number }
  | { readonly kind: 'connection error'; readonly message: string };

/**
 * Sends a request as given (node's HTTP client, so the path and headers go out byte for byte
 * as far as HTTP allows) and waits at most `timeoutMs` for the whole answer.
 */
export function sendRequest(
  origin: { readonly port: number; readonly agent: http.Agent },
  request: FuzzRequest,
  timeoutMs: number,
): Promise<FuzzOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: FuzzOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body) headers['Content-Length'] = request.body.length;
    let outgoing: http.ClientRequest;
    try {
      outgoing = http.request({
        host: '127.0.0.1',
        port: origin.port,
        agent: origin.agent,
        method: request.method,
        path: request.target,
        headers,
      });
    } catch (error) {
      // The client refused to send it (a path or header HTTP cannot carry): not the server's doing.
      resolve({ kind: 'connection error', message: `not sendable: ${String(error)}` });
      return;
    }
    const timer = setTimeout(() => {
      finish({ kind: 'timeout', ms: timeoutMs });
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        finish({
          kind: 'response',
          response: lazyBody(incoming.statusCode ?? 0, incoming.headers, chunks),
        }),
      );
      incoming.on('error', (error) => finish({ kind: 'connection error', message: error.message }));
    });
    outgoing.on('error', (error) => finish({ kind: 'connection error', message: error.message }));
    outgoing.end(request.body);
  });
}

/**
 * A response whose body is decoded when first read: the oracle reads the bodies of errors, and
 * most successes (the OpenAPI document's 300 answers above all) are never decoded.
 */
function lazyBody(
  status: number,
  headers: http.IncomingHttpHeaders,
  chunks: readonly Buffer[],
): FuzzResponse {
  let body: string | undefined;
  return {
    status,
    headers,
    get body() {
      body ??= Buffer.concat(chunks).toString('utf8');
      return body;
    },
  };
}
