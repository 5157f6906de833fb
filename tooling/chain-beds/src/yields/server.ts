import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_YIELDS_POOLS } from './pool';
import type { YieldsPool } from './pool';

/** How the bed misbehaves on `GET /pools`: answer normally, 500, non-JSON, or never. */
export type YieldsFailureMode = 'none' | 'error500' | 'garbage' | 'silent';

/** A running DefiLlama-shaped yields server on 127.0.0.1. */
export interface YieldsServer {
  /** Base URL (no trailing slash); the reader appends `/pools`. */
  readonly url: string;
  /** Replaces the pools served from the next request on. */
  setPools(pools: readonly YieldsPool[]): void;
  setFailure(mode: YieldsFailureMode): void;
  /** Requests received so far, on any path and in any failure mode. */
  requests(): number;
  /** Drops every open connection (including silent ones) and closes the listener. */
  stop(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * Starts a local server that answers `GET /pools` the way DefiLlama's yields API does
 * (`{ status: 'success', data: [...] }`), with controlled pools and injectable failures; any
 * other path is a 404 JSON. Port 0, so tests can run in parallel.
 */
export async function startYieldsServer(
  options: { readonly pools?: readonly YieldsPool[] } = {},
): Promise<YieldsServer> {
  let pools: readonly YieldsPool[] = options.pools ?? DEFAULT_YIELDS_POOLS;
  let failure: YieldsFailureMode = 'none';
  let count = 0;
  const sockets = new Set<Socket>();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    count += 1;
    req.resume();
    const path = new URL(req.url ?? '/', 'http://bed').pathname.replace(/\/+$/, '');
    if (path !== '/pools') {
      sendJson(res, 404, { status: 'error', message: 'not found' });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, { status: 'error', message: 'method not allowed' });
      return;
    }
    switch (failure) {
      case 'silent':
        return;
      case 'error500':
        sendJson(res, 500, { status: 'error', message: 'internal server error' });
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('<html><body>502 Bad Gateway</body></html>');
        return;
      case 'none':
        sendJson(res, 200, { status: 'success', data: pools });
    }
  };

  const server = createServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('yields bed has no TCP address');

  return {
    url: `http://127.0.0.1:${address.port}`,
    setPools: (next) => {
      pools = [...next];
    },
    setFailure: (mode) => {
      failure = mode;
    },
    requests: () => count,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
