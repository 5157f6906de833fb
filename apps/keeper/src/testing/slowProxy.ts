// Test support: an HTTP proxy that forwards each POST to `target` after `delayMs`, so a test can
// catch a keeper in the middle of a batch of chain reads.
import { createServer } from 'node:http';

export interface SlowProxy {
  readonly url: string;
  /** Requests forwarded so far. */
  readonly forwarded: () => number;
  close(): Promise<void>;
}

export function startSlowProxy(target: string, delayMs: number): Promise<SlowProxy> {
  let forwarded = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        })
          .then(async (answer) => {
            forwarded += 1;
            res.writeHead(answer.status, { 'content-type': 'application/json' });
            res.end(Buffer.from(await answer.arrayBuffer()));
          })
          .catch(() => res.destroy());
      }, delayMs);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address && typeof address !== 'string' ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        forwarded: () => forwarded,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
