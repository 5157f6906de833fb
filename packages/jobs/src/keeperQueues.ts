import { Queue } from 'bullmq';
import type { Job, JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_NAMES, jobDefinition } from './jobs/jobCatalog';
import type { JobName } from './jobs/jobCatalog';

/** One BullMQ queue per job, named after it, under the keeper prefix. */
export type KeeperQueues = Readonly<Record<JobName, Queue>>;

/** Finished jobs kept for inspection (and counted as `failed` in health). */
const KEEP_COMPLETED = 100;
const KEEP_FAILED = 500;

/** Retry policy and retention of `name`'s jobs, from its catalog entry. */
export function jobOptions(name: JobName): JobsOptions {
  const job = jobDefinition(name);
  return {
    attempts: job.attempts,
    backoff: { type: job.backoff.type, delay: job.backoff.delayMs },
    removeOnComplete: { count: KEEP_COMPLETED },
    removeOnFail: { count: KEEP_FAILED },
  };
}

/**
 * Opens the queues on `connection` (shared, not closed with them). Queue errors (Redis going
 * away) go to `onError` instead of crashing the process.
 */
export function openKeeperQueues(
  connection: Redis,
  prefix: string,
  onError: (error: Error) => void,
): KeeperQueues {
  return Object.fromEntries(
    JOB_NAMES.map((name) => {
      const queue = new Queue(name, { connection, prefix });
      queue.on('error', onError);
      return [name, queue];
    }),
  ) as Record<JobName, Queue>;
}

export async function closeKeeperQueues(queues: KeeperQueues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}

/**
 * Queues one run of `name` now (`trigger: manual`, plus `data` for jobs that take more). While
 * such a run waits or runs, asking again returns that job instead of queueing a second one.
 */
export async function enqueueKeeperJob(
  queues: KeeperQueues,
  name: JobName,
  data: Readonly<Record<string, unknown>> = {},
): Promise<Job> {
  return queues[name].add(
    name,
    { ...data, trigger: 'manual' },
    { ...jobOptions(name), deduplication: { id: `${name}:manual` } },
  );
}
