import { z } from 'zod';
import type { KeeperJobDeps } from './keeperJobDeps';

/** What one run did (legs settled, rows swept, …); recorded with the run. */
export type JobCounts = Readonly<Record<string, number>>;

export interface JobBackoff {
  readonly type: 'exponential' | 'fixed';
  /** First retry delay; exponential doubles it per attempt (BullMQ adds no jitter here). */
  readonly delayMs: number;
}

/** One entry of the job catalog: its data, its retry policy, its cadence and its processor. */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  readonly summary: string;
  /** The job's data; parsed before the processor runs (a bad payload is never retried). */
  readonly data: S;
  /** Tries in all, the first included. */
  readonly attempts: number;
  readonly backoff: JobBackoff;
  /** Runs of this job at once per keeper process. */
  readonly concurrency: number;
  /** Default cadence in ms (`SVC_KEEPER_<JOB>_EVERY_MS` overrides it; 0 = not scheduled). */
  readonly everyMs: number;
  process(data: z.output<S>, deps: KeeperJobDeps): Promise<JobCounts>;
}

/** Keeps a catalog entry's literal types. */
export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  return job;
}

/** The data of a job that needs nothing but to know who asked for it. */
export const TriggeredJobData = z.strictObject({
  trigger: z.enum(['schedule', 'manual']).default('schedule'),
});
export type TriggeredJobData = z.infer<typeof TriggeredJobData>;

/** A run that did part of its work and failed: the counts are recorded with the failure. */
export class JobRunError extends Error {
  override readonly name: string = 'JobRunError';
  constructor(
    message: string,
    readonly counts: JobCounts,
  ) {
    super(message);
  }
}
