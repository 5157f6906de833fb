import { errorMessage } from '@yieldrouter/schemas';
import { UnrecoverableError } from 'bullmq';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { KeeperJobRun } from '@yieldrouter/schemas';
import { jobDefinition } from './jobs/jobCatalog';
import type { JobName } from './jobs/jobCatalog';
import { JobRunError } from './jobs/defineJob';
import type { JobCounts } from './jobs/defineJob';
import type { KeeperJobDeps } from './jobs/keeperJobDeps';
import { recordJobRun, recordJobStart } from './state/writeKeeperState';

export interface RunJobState {
  readonly redis: Redis;
  readonly prefix: string;
}

/**
 * The BullMQ processor of `name`: parses the job's data with the catalog schema (a bad payload
 * fails at once, never retried), runs the catalog processor, and records the run (counts or
 * error, duration, attempt) in the keeper state. A failed run is rethrown so BullMQ retries it
 * with the job's backoff.
 */
export function jobProcessor(name: JobName, deps: KeeperJobDeps, state: RunJobState) {
  const definition = jobDefinition(name);
  return async (job: Job): Promise<JobCounts> => {
    const startedAt = deps.now();
    const started = performance.now();
    // From when the job was due (added, plus its delay) to when a worker took it.
    deps.observer?.jobLag(
      name,
      ((job.processedOn ?? Date.now()) - job.timestamp - job.delay) / 1000,
    );
    const record = async (outcome: { counts: JobCounts; error: string | null }) => {
      const run: KeeperJobRun = {
        jobId: job.id ?? '',
        attempt: job.attemptsMade + 1,
        trigger: job.repeatJobKey ? 'schedule' : 'manual',
        startedAt: startedAt.toISOString(),
        finishedAt: deps.now().toISOString(),
        ok: outcome.error === null,
        durationMs: Math.round(performance.now() - started),
        counts: outcome.counts,
        error: outcome.error,
      };
      deps.observer?.jobRun(name, run.ok, (performance.now() - started) / 1000, run.counts);
      try {
        await recordJobRun(state.redis, state.prefix, name, run);
      } catch (error) {
        deps.logger.warn({ job: name, err: errorMessage(error, 500) }, 'could not record the run');
      }
      return run;
    };
    try {
      await recordJobStart(state.redis, state.prefix, name, startedAt.toISOString());
    } catch (error) {
      deps.logger.warn({ job: name, err: errorMessage(error, 500) }, 'could not record the start');
    }
    const data = definition.data.safeParse(job.data);
    if (!data.success) {
      const error = `bad job data: ${data.error.issues[0]?.message ?? 'invalid'}`;
      await record({ counts: {}, error });
      throw new UnrecoverableError(error);
    }
    try {
      const counts = await definition.process(data.data, deps);
      const run = await record({ counts, error: null });
      deps.logger.info({ job: name, jobId: job.id, ms: run.durationMs, counts }, 'job done');
      return counts;
    } catch (error) {
      const counts = error instanceof JobRunError ? error.counts : {};
      const run = await record({ counts, error: errorMessage(error, 500) });
      deps.logger.warn(
        { job: name, jobId: job.id, attempt: run.attempt, err: run.error },
        'job failed',
      );
      throw error;
    }
  };
}
