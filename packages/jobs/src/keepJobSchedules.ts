import { errorMessage } from '@yieldrouter/schemas';
import type { Logger } from 'pino';
import { JOB_NAMES } from './jobs/jobCatalog';
import type { JobName } from './jobs/jobCatalog';
import { jobOptions } from './keeperQueues';
import type { KeeperQueues } from './keeperQueues';

export interface JobSchedules {
  /**
   * Upserts every job's scheduler at its cadence (removes it at cadence 0): at start, so
   * restarts and several keepers converge on one schedule. Throws when Redis fails.
   */
  apply(): Promise<void>;
  /**
   * Re-creates the schedulers that are missing or at another cadence (Redis restarted empty,
   * or lost keys) and leaves the others alone, so a check never shifts a running schedule.
   * Returns the jobs it re-created; never throws (Redis down: nothing to do until it returns).
   */
  check(reason: string): Promise<readonly JobName[]>;
}

/**
 * The keeper's job schedulers, kept in place. Checks never overlap: one asked while another
 * runs returns nothing.
 */
export function keepJobSchedules(
  queues: KeeperQueues,
  everyMs: Readonly<Record<JobName, number>>,
  logger: Logger,
): JobSchedules {
  const upsert = (name: JobName) =>
    queues[name].upsertJobScheduler(
      name,
      { every: everyMs[name] },
      { name, data: { trigger: 'schedule' }, opts: jobOptions(name) },
    );
  let checking = false;
  return {
    apply: async () => {
      for (const name of JOB_NAMES) {
        if (everyMs[name] > 0) await upsert(name);
        else await queues[name].removeJobScheduler(name);
      }
    },
    check: async (reason) => {
      if (checking) return [];
      checking = true;
      const recreated: JobName[] = [];
      try {
        for (const name of JOB_NAMES) {
          if (everyMs[name] === 0) continue;
          const scheduler = await queues[name].getJobScheduler(name);
          if (scheduler && Number(scheduler.every) === everyMs[name]) continue;
          await upsert(name);
          recreated.push(name);
        }
      } catch (error) {
        logger.debug({ err: errorMessage(error), reason }, 'job schedules not checked');
      } finally {
        checking = false;
      }
      if (recreated.length > 0) {
        logger.warn({ jobs: recreated, reason }, 'job schedules were missing: re-created');
      }
      return recreated;
    },
  };
}
