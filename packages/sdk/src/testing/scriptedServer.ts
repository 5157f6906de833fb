import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer: a status and JSON body, a hang, or a dropped connection. */
export type ScriptedReply =
  | { readonly status: number; readonly body?: unknown; readonly headers?: Record<string, string> }
  | { readonly hang: true }
  | { readonly reset: true };

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface ScriptedServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A local HTTP server that answers with `replies` in order (the last one repeats): the real
 * network path for the retry, timeout and schema-mismatch tests, without a mock fetch.
 */
export async function startScriptedServer(
  replies: readonly ScriptedReply[],
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const reply = replies[Math.min(requests.length, replies.length) - 1];
      if (!reply || 'hang' in reply) {
        open.add(res);
        return;
      }
      if ('reset' in reply) {
        req.socket.destroy();
        return;
      }
      res.writeHead(reply.status, {
        'content-type': 'application/json',
        'x-request-id': `req_scripted_${requests.length}`,
        ...reply.headers,
      });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
