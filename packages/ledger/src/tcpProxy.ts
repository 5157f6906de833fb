import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface TcpProxy {
  /** `host:port` clients connect to. */
  readonly address: string;
  /** The server goes away: open connections are cut and new ones refused. */
  cut(): Promise<void>;
  /** The server is back on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Test support: a TCP proxy in front of a server (PostgreSQL) that can be cut and restored, to
 * play an outage of that server alone (never the machine's shared one).
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  return {
    address: `127.0.0.1:${port}`,
    cut: stop,
    restore: () => listen(port),
    close: stop,
  };
}
