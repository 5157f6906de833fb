import { KeeperEnqueueResult, KeeperSurvivalDocument, OpsHealthDocument } from '../keeper';
import { HarvestBatchRequest } from '../keeper';
import { defineRoute } from './defineRoute';
import { KEEPER, ok } from './routeParts';

/**
 * Operator routes: the keeper key only. Served by the API and in its OpenAPI document; not in
 * the SDK (agents and owners never hold a keeper key), so its bundle does not carry them.
 */
export const keeperRoutes = {
  getKeeperSurvival: defineRoute({
    operationId: 'getKeeperSurvival',
    method: 'get',
    path: '/svc/keeper/survival',
    versioned: true,
    auth: KEEPER,
    summary: 'Is the keeper alive; last run per job.',
    description:
      'Read from Redis: the heartbeat a running keeper writes every few seconds (alive while it is fresh) and, per job, the last run (counts or error), the last success and failures. 200 even when no keeper runs: `alive: false` with the reason.',
    tags: ['keeper'],
    request: {},
    responses: ok(KeeperSurvivalDocument),
  }),
  triggerHarvestBatch: defineRoute({
    operationId: 'triggerHarvestBatch',
    method: 'post',
    path: '/svc/keeper/harvest-batch',
    versioned: true,
    auth: KEEPER,
    summary: 'Enqueue a permissionless harvest batch over staked wallets.',
    description:
      'Queues a `harvest-batch` run on the keeper now (optionally one chain, and the page size): it harvests every wallet with a staked position, page after page (schema `harvest-plan.v1` per page; each wallet as `POST /wallets/{address}/harvest` would). A run already queued is not queued twice (the same jobId comes back). 503 SERVICE_UNAVAILABLE when Redis is unreachable.',
    tags: ['keeper'],
    request: { body: HarvestBatchRequest },
    responses: { 202: { description: 'Enqueued.', schema: KeeperEnqueueResult } },
  }),
  getOpsHealth: defineRoute({
    operationId: 'getOpsHealth',
    method: 'get',
    path: '/svc/ops/health',
    versioned: true,
    auth: KEEPER,
    summary: 'Queue depths, failures, lag.',
    description:
      'Database and Redis round trips, keeper survival, and per job queue depths (waiting, active, delayed, failed) with lag (age of the oldest waiting job, age of the last success). Always 200; `status` says ok, degraded or down.',
    tags: ['keeper'],
    request: {},
    responses: ok(OpsHealthDocument),
  }),
  refreshStats: defineRoute({
    operationId: 'refreshStats',
    method: 'post',
    path: '/svc/keeper/stats/refresh',
    versioned: true,
    auth: KEEPER,
    summary: 'Refresh derived statistics (30-day APY means, totals).',
    description:
      'Queues an `apy-refresh` run on the keeper now: it appends one APY reading per venue to the history the 30-day means and discovery documents are computed from. A run already queued is not queued twice (the same jobId comes back). 503 SERVICE_UNAVAILABLE when Redis is unreachable.',
    tags: ['keeper'],
    request: {},
    responses: { 202: { description: 'Enqueued.', schema: KeeperEnqueueResult } },
  }),
} as const;
