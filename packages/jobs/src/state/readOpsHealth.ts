import { errorMessage } from '@yieldrouter/schemas';
import type { Redis } from 'ioredis';
import type { Books } from '@yieldrouter/ledger';
import type { DependencyCheck, KeeperQueueHealth, OpsHealthDocument } from '@yieldrouter/schemas';
import type { KeeperQueues } from '../keeperQueues';
import { readKeeperSurvival, unknownSurvival } from './readKeeperSurvival';

export interface ReadOpsHealthParameters {
  readonly db: Books;
  /** Null when this process has no Redis client (reported as down). */
  readonly redis: Redis | null;
  /** Null when the queues cannot be opened (Redis down); depths are then left out. */
  readonly queues: KeeperQueues | null;
  /** Every job of the catalog. */
  readonly jobs: readonly string[];
  readonly prefix: string;
  readonly now: () => Date;
  /** Upper bound on each dependency check. */
  readonly timeoutMs?: number;
}

async function check(work: () => Promise<unknown>, timeoutMs: number): Promise<DependencyCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started), detail: null };
  } catch (error) {
    return { status: 'down', latencyMs: null, detail: errorMessage(error, 200) };
  } finally {
    clearTimeout(timer);
  }
}

async function queueHealth(
  job: string,
  queue: KeeperQueues[keyof KeeperQueues],
  now: Date,
): Promise<KeeperQueueHealth> {
  const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
  const [oldest] = await queue.getJobs(['waiting'], 0, 0, true);
  return {
    job,
    queue: queue.name,
    waiting: (counts['waiting'] ?? 0) + (counts['prioritized'] ?? 0),
    active: counts['active'] ?? 0,
    delayed: counts['delayed'] ?? 0,
    failed: counts['failed'] ?? 0,
    oldestWaitingAgeMs: oldest ? Math.max(0, now.getTime() - oldest.timestamp) : null,
  };
}

/**
 * What ops needs to know at a glance: database and Redis round trips, keeper survival, and per
 * job queue depths and lag. `down` when the database or Redis is unreachable; `degraded` when no
 * keeper is alive or a job is overdue or stalled.
 */
export async function readOpsHealth(
  parameters: ReadOpsHealthParameters,
): Promise<OpsHealthDocument> {
  const { db, redis, queues, prefix, jobs, now } = parameters;
  const timeoutMs = parameters.timeoutMs ?? 2000;
  const [database, reachable] = await Promise.all([
    check(() => db.$queryRaw`SELECT 1`, timeoutMs),
    check(() => (redis ? redis.ping() : Promise.reject(new Error('not configured'))), timeoutMs),
  ]);
  let redisCheck = reachable;
  let keeper = unknownSurvival(jobs, now());
  let depths: KeeperQueueHealth[] = [];
  if (redis && redisCheck.status === 'up') {
    try {
      keeper = await readKeeperSurvival({ redis, prefix, jobs, now: now() });
      depths = queues
        ? await Promise.all(
            Object.entries(queues).map(([job, queue]) => queueHealth(job, queue, now())),
          )
        : [];
    } catch (error) {
      redisCheck = { status: 'down', latencyMs: null, detail: errorMessage(error, 200) };
    }
  }
  const down = database.status === 'down' || redisCheck.status === 'down';
  const degraded = !keeper.alive || keeper.jobs.some((job) => job.overdue || job.stalled);
  return {
    schemaVersion: 'svc-ops-health.v1',
    status: down ? 'down' : degraded ? 'degraded' : 'ok',
    checkedAt: now().toISOString(),
    database,
    redis: redisCheck,
    keeper,
    queues: depths,
  };
}

/**
 * Whether a keeper process is fit to go on (its /health answers 200, `svc_keeper_up` is 1): the
 * database and Redis answer, a keeper is alive, and no scheduled job is stalled. A job that runs
 * and fails (an APY source down) is overdue, not stalled: restarting the keeper would not help.
 */
export function keeperIsHealthy(health: OpsHealthDocument): boolean {
  return (
    health.status !== 'down' &&
    health.keeper.alive &&
    !health.keeper.jobs.some((job) => job.stalled)
  );
}

/** `readOpsHealth` on one database: what the keeper routes serve. */
export function opsHealthReader(db: Books) {
  return (parameters: Omit<ReadOpsHealthParameters, 'db'>): Promise<OpsHealthDocument> =>
    readOpsHealth({ ...parameters, db });
}

export type OpsHealthReader = ReturnType<typeof opsHealthReader>;
