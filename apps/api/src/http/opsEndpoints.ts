import type { Express, RequestHandler, Router } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Registry } from '@yieldrouter/metrics';
import { renderRegistry } from '@yieldrouter/metrics';
import type { Role } from '@yieldrouter/schemas';
import type { KeeperAccess } from '../keeperAccess';
import { ApiError } from './apiError';
import type { KeyResolver } from './auth';
import { authenticate } from './auth';
import type { AuthFailures } from './authFailures';

export const METRICS_PATH = '/metrics';
export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * The dashboard's page loads its own scripts and styles only (inline style attributes and one
 * `<style>` block need 'unsafe-inline' for styles; no inline script runs). Its Google Fonts
 * link is refused: the page falls back to system fonts and calls no third party.
 */
export const QUEUE_DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface OpsEndpointsOptions {
  readonly keys: KeyResolver;
  readonly authFailures: AuthFailures;
  readonly registry: Registry;
  readonly access: KeeperAccess;
  /** Retries, removals and promotions from the dashboard (SVC_QUEUE_DASHBOARD_WRITE). */
  readonly dashboardWrite: boolean;
}

/**
 * X-API-Key of one of `roles`, as on manifest routes (401, 403, 429 with back-off); `path` is
 * the route label of the request metrics.
 */
function keyOf(
  path: string,
  roles: readonly [Role, ...Role[]],
  options: OpsEndpointsOptions,
): RequestHandler {
  const route = { auth: roles };
  return (req, res, next) => {
    res.locals['route'] = path;
    res.setHeader('Cache-Control', 'no-store');
    authenticate(route, req, options).then(() => next(), next);
  };
}

/**
 * `GET /metrics` (keeper key): the process's registry in the Prometheus text format.
 * `/admin/queues` (keeper or owner key): the keeper's BullMQ queues in bull-board, read-only
 * unless `dashboardWrite`; 503 while Redis is unreachable.
 */
export function mountOpsEndpoints(app: Express, options: OpsEndpointsOptions): void {
  app.get(METRICS_PATH, keyOf(METRICS_PATH, ['keeper'], options), (_req, res, next) => {
    renderRegistry(options.registry).then(({ contentType, body }) => {
      res.setHeader('Content-Type', contentType);
      res.end(body);
    }, next);
  });

  let board: Router | undefined;
  const dashboard = (): Router | null => {
    if (board) return board;
    const queues = options.access.queues();
    if (!queues) return null;
    const adapter = new ExpressAdapter();
    adapter.setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({
      queues: Object.values(queues).map(
        (queue) =>
          new BullMQAdapter(queue, {
            readOnlyMode: !options.dashboardWrite,
            allowRetries: options.dashboardWrite,
          }),
      ),
      serverAdapter: adapter,
      options: { uiConfig: { boardTitle: 'Yield Router keeper' } },
    });
    board = adapter.getRouter() as Router;
    return board;
  };
  app.use(
    QUEUE_DASHBOARD_PATH,
    keyOf(QUEUE_DASHBOARD_PATH, ['keeper', 'owner'], options),
    (req, res, next) => {
      res.setHeader('Content-Security-Policy', QUEUE_DASHBOARD_CSP);
      const router = options.access.ready() ? dashboard() : null;
      if (!router) {
        next(
          new ApiError(
            'SERVICE_UNAVAILABLE',
            'Redis is unreachable: the queue dashboard reads the keeper queues from Redis; start Redis (REDIS_URL) and retry',
          ),
        );
        return;
      }
      router(req, res, next);
    },
  );
}
