import type { Redis } from 'ioredis';
import { JOB_NAMES, readKeeperSurvival } from '@yieldrouter/jobs';

/**
 * `job`'s last recorded run under `prefix`, or undefined (none yet, or none readable while the
 * test's client reconnects after a Redis restart).
 */
export async function lastRunOf(redis: Redis, prefix: string, job: string) {
  const survival = await readKeeperSurvival({
    redis,
    prefix,
    jobs: JOB_NAMES,
    now: new Date(),
  }).catch(() => undefined);
  return survival?.jobs.find((entry) => entry.job === job)?.lastRun ?? undefined;
}
