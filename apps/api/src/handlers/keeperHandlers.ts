import type { JobName, KeeperSettings, OpsHealthReader } from '@yieldrouter/jobs';
import {
  JOB_NAMES,
  enqueueKeeperJob,
  readKeeperSurvival,
  unknownSurvival,
} from '@yieldrouter/jobs';
import type { KeeperEnqueueResult } from '@yieldrouter/schemas';
import { ApiError } from '../http/apiError';
import type { KeeperAccess } from '../keeperAccess';
import type { Handlers } from '../http/mountRoutes';

export interface KeeperHandlerDeps {
  /** Ops health (database, Redis, queues), on the books. */
  readonly opsHealth: OpsHealthReader;
  /** Redis and the keeper's queues, when Redis answers. */
  readonly access: KeeperAccess;
  readonly keeper: KeeperSettings;
  readonly now?: () => Date;
}

/**
 * The keeper-only routes: survival and ops health read the state keepers write in Redis (and
 * the queues), stats refresh queues an `apy-refresh` run. The API never runs a job here.
 */
export function keeperHandlers(deps: KeeperHandlerDeps): Handlers {
  const now = deps.now ?? (() => new Date());
  const prefix = deps.keeper.prefix;
  const { ready, queues } = deps.access;
  const survival = async () => {
    const client = ready();
    if (!client) return unknownSurvival(JOB_NAMES, now());
    try {
      return await readKeeperSurvival({ redis: client, prefix, jobs: JOB_NAMES, now: now() });
    } catch {
      return unknownSurvival(JOB_NAMES, now());
    }
  };

  /** Queues one manual run on the keeper; 503 while Redis is unreachable. */
  const enqueue = async (
    name: JobName,
    data: Readonly<Record<string, unknown>> = {},
  ): Promise<KeeperEnqueueResult> => {
    const open = queues();
    if (!ready() || !open) {
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        `Redis is unreachable: the keeper queue cannot take ${name}; try again`,
      );
    }
    const job = await enqueueKeeperJob(open, name, data);
    return {
      schemaVersion: 'svc-keeper-enqueued.v1',
      job: name,
      jobId: job.id ?? '',
      state: await job.getState(),
      enqueuedAt: new Date(job.timestamp).toISOString(),
      keeperAlive: (await survival()).alive,
    };
  };

  return {
    getKeeperSurvival: async () => ({ status: 200, body: await survival() }),
    getOpsHealth: async () => {
      return {
        status: 200,
        body: await deps.opsHealth({
          redis: deps.access.redis,
          queues: queues(),
          jobs: JOB_NAMES,
          prefix,
          now,
        }),
      };
    },
    refreshStats: async () => ({ status: 202, body: await enqueue('apy-refresh') }),
    triggerHarvestBatch: async ({ body }) => ({
      status: 202,
      body: await enqueue('harvest-batch', {
        ...(body.chain ? { chain: body.chain } : {}),
        ...(body.pageSize ? { pageSize: body.pageSize } : {}),
      }),
    }),
  };
}
