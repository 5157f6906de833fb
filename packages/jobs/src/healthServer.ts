import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { OpsHealthDocument } from '@yieldrouter/schemas';
import { renderMetrics } from './renderMetrics';
import { keeperIsHealthy } from './state/readOpsHealth';

export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The keeper process's ops endpoint: `GET /health` (the ops health document as JSON; 503 when
 * the database or Redis is down, no keeper is alive or a scheduled job is stalled, so an
 * orchestrator restarts the process) and `GET /metrics` (the same as Prometheus text).
 */
export function startHealthServer(
  read: () => Promise<OpsHealthDocument>,
  { host, port }: { readonly host: string; readonly port: number },
): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || (path !== '/health' && path !== '/metrics')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'NOT_FOUND', message: 'GET /health or GET /metrics' }));
      return;
    }
    read().then(
      (health) => {
        if (path === '/metrics') {
          res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
          res.end(renderMetrics(health));
        } else {
          res.writeHead(keeperIsHealthy(health) ? 200 : 503, {
            'content-type': 'application/json',
          });
          res.end(JSON.stringify(health));
        }
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'health check failed' }));
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: address && typeof address !== 'string' ? address.port : port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
