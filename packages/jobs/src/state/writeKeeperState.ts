import type { Redis } from 'ioredis';
import type { KeeperHeartbeat, KeeperJobRun } from '@yieldrouter/schemas';
import { keeperStateKeys } from './keeperStateKeys';

/** Says "alive" until `staleAfterMs` from now. */
export async function writeHeartbeat(
  redis: Redis,
  prefix: string,
  heartbeat: KeeperHeartbeat,
): Promise<void> {
  await redis.set(
    keeperStateKeys(prefix).heartbeat,
    JSON.stringify(heartbeat),
    'PX',
    heartbeat.staleAfterMs,
  );
}

/** Removes the heartbeat of a keeper that stops on purpose (it is not alive any more). */
export async function clearHeartbeat(redis: Redis, prefix: string): Promise<void> {
  await redis.del(keeperStateKeys(prefix).heartbeat);
}

/** Records that a run of `job` started (what tells a slow run from a job that never runs). */
export async function recordJobStart(
  redis: Redis,
  prefix: string,
  job: string,
  startedAt: string,
): Promise<void> {
  await redis.hset(keeperStateKeys(prefix).lastStart, job, startedAt);
}

/** Records one finished run of `job`: its last run, and its last success or one more failure. */
export async function recordJobRun(
  redis: Redis,
  prefix: string,
  job: string,
  run: KeeperJobRun,
): Promise<void> {
  const keys = keeperStateKeys(prefix);
  const write = redis.multi().hset(keys.lastRun, job, JSON.stringify(run));
  if (run.ok) write.hset(keys.lastSuccess, job, run.finishedAt);
  else write.hincrby(keys.failures, job, 1);
  await write.exec();
}
