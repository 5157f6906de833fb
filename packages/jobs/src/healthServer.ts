import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { OpsHealthDocument } from '@yieldrouter/schemas';
import {
  createMetricsRegistry,
  registerOpsHealthMetrics,
  renderRegistry,
} from '@yieldrouter/metrics';
import type { Registry, ServiceBacklog } from '@yieldrouter/metrics';
import { keeperIsHealthy } from './state/readOpsHealth';

export interface HealthServerOptions {
  readonly host: string;
  readonly port: number;
  /** The process's registry (job metrics); a new one when not given. */
  readonly registry?: Registry;
  /** The books' webhook backlog and APY freshness, read at each scrape. */
  readonly backlog?: () => Promise<ServiceBacklog>;
}

export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The keeper process's ops endpoint: `GET /health` (the ops health document as JSON; 503 when
 * the database or Redis is down, no keeper is alive or a scheduled job is stalled, so an
 * orchestrator restarts the process) and `GET /metrics` (the registry in the Prometheus text
 * format: the ops health gauges, read at each scrape, and the process's own metrics).
 */
export function startHealthServer(
  read: () => Promise<OpsHealthDocument>,
  options: HealthServerOptions,
): Promise<HealthServer> {
  const { host, port } = options;
  const registry = options.registry ?? createMetricsRegistry();
  registerOpsHealthMetrics(registry, {
    read,
    healthy: keeperIsHealthy,
    ...(options.backlog ? { backlog: options.backlog } : {}),
  });
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || (path !== '/health' && path !== '/metrics')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'NOT_FOUND', message: 'GET /health or GET /metrics' }));
      return;
    }
    const answer =
      path === '/metrics'
        ? renderRegistry(registry).then(({ contentType, body }) => {
            res.writeHead(200, { 'content-type': contentType });
            res.end(body);
          })
        : read().then((health) => {
            res.writeHead(keeperIsHealthy(health) ? 200 : 503, {
              'content-type': 'application/json',
            });
            res.end(JSON.stringify(health));
          });
    answer.then(
      () => undefined,
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
