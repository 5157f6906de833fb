import { createServer as createHttpServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { Server as TcpServer, Socket } from 'node:net';

/** A fault endpoint for fail-closed tests: an RPC that is down, silent or talking garbage. */
export interface FaultEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

/** A port nobody listens on: connections are refused at once. */
export async function closedPortUrl(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

function listening<S extends TcpServer | HttpServer>(server: S, sockets: Set<Socket>) {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise<FaultEndpoint>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address && typeof address !== 'string' ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Accepts connections and never answers: only a client timeout gets the caller out. */
export function startSilentServer(): Promise<FaultEndpoint> {
  return listening(createTcpServer(), new Set());
}

/**
 * Answers every request with `body` (default: not JSON at all). Pass a JSON string of the
 * wrong shape to test schema checks.
 */
export function startGarbageServer(
  body = '<html>502 Bad Gateway</html>',
  status = 200,
): Promise<FaultEndpoint> {
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  return listening(server, new Set());
}
