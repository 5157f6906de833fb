import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { KeeperHeartbeat, KeeperJobRun } from '@yieldrouter/schemas';
import type { KeeperJobSurvival, KeeperSurvivalDocument } from '@yieldrouter/schemas';
import { keeperStateKeys } from './keeperStateKeys';

/** The least grace before a job that has not run counts as stalled (a busy machine is slow). */
const MIN_STALL_GRACE_MS = 5000;
/** Beyond ten cadences, how long a run may last before its start stands for a dead run. */
const MAX_RUN_GRACE_MS = 10 * 60_000;

export interface ReadKeeperSurvivalParameters {
  readonly redis: Redis;
  readonly prefix: string;
  /** Every job of the catalog (a job that never ran is listed with nulls). */
  readonly jobs: readonly string[];
  readonly now: Date;
}

/** A stored JSON value read back through its schema; anything unreadable counts as absent. */
function parseStored<S extends z.ZodType>(schema: S, raw: string | null | undefined) {
  if (!raw) return null;
  try {
    const result = schema.safeParse(JSON.parse(raw));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/**
 * Is a keeper alive, and how did each job last run: read from the state keepers write in Redis.
 * Throws when Redis cannot be read (the caller decides what that means).
 */
export async function readKeeperSurvival({
  redis,
  prefix,
  jobs,
  now,
}: ReadKeeperSurvivalParameters): Promise<KeeperSurvivalDocument> {
  const keys = keeperStateKeys(prefix);
  const [beat, lastRuns, lastStarts, lastSuccesses, failures] = await Promise.all([
    redis.get(keys.heartbeat),
    redis.hgetall(keys.lastRun),
    redis.hgetall(keys.lastStart),
    redis.hgetall(keys.lastSuccess),
    redis.hgetall(keys.failures),
  ]);
  const heartbeat = parseStored(KeeperHeartbeat, beat);
  const age = (iso: string) => Math.max(0, now.getTime() - Date.parse(iso));
  const alive = heartbeat !== null && age(heartbeat.at) <= heartbeat.staleAfterMs;
  const everyMs = new Map(heartbeat?.jobs.map((entry) => [entry.job, entry.everyMs]));
  return {
    schemaVersion: 'svc-keeper-survival.v1',
    alive,
    reason: alive ? null : 'no_heartbeat',
    checkedAt: now.toISOString(),
    heartbeat: heartbeat ? { ...heartbeat, ageMs: age(heartbeat.at) } : null,
    jobs: jobs.map((job): KeeperJobSurvival => {
      const lastSuccessAt = lastSuccesses[job] ?? null;
      const lastStartedAt = lastStarts[job] ?? null;
      const lastRun = parseStored(KeeperJobRun, lastRuns[job]);
      const cadence = alive ? (everyMs.get(job) ?? null) : null;
      const scheduled = cadence !== null && cadence > 0;
      // Time since the latest of `times` and the keeper's start.
      const sinceLatest = (times: Array<string | null | undefined>) =>
        Math.min(
          ...[...times, heartbeat?.startedAt]
            .filter((value): value is string => typeof value === 'string')
            .map(age),
        );
      // A run is under way from its start until its outcome is recorded; a start older than
      // the longest a run may take stands for a run that died with its keeper.
      const underWay =
        lastStartedAt !== null &&
        (lastRun === null || Date.parse(lastStartedAt) > Date.parse(lastRun.startedAt)) &&
        scheduled &&
        age(lastStartedAt) <= 10 * cadence + MAX_RUN_GRACE_MS;
      const grace = Math.max(heartbeat?.staleAfterMs ?? 0, MIN_STALL_GRACE_MS);
      return {
        job,
        everyMs: cadence,
        lastRun,
        lastSuccessAt,
        lastSuccessAgeMs: lastSuccessAt ? age(lastSuccessAt) : null,
        failures: Number(failures[job] ?? 0),
        // Overdue: scheduled, and nothing succeeded for two cadences since the later of the
        // last success and the keeper's start.
        overdue: scheduled && sinceLatest([lastSuccessAt]) > 2 * cadence,
        lastStartedAt,
        // Stalled: nothing ran at all (ok or failed) for two cadences and a grace, and nothing
        // is under way: the schedule is gone or no worker takes the job.
        stalled:
          scheduled &&
          !underWay &&
          sinceLatest([lastStartedAt, lastRun?.finishedAt]) > 2 * cadence + grace,
      };
    }),
  };
}

/** The survival document when Redis cannot be read: nothing is known, so nothing is alive. */
export function unknownSurvival(jobs: readonly string[], now: Date): KeeperSurvivalDocument {
  return {
    schemaVersion: 'svc-keeper-survival.v1',
    alive: false,
    reason: 'redis_unavailable',
    checkedAt: now.toISOString(),
    heartbeat: null,
    jobs: jobs.map((job) => ({
      job,
      everyMs: null,
      lastRun: null,
      lastSuccessAt: null,
      lastSuccessAgeMs: null,
      failures: 0,
      overdue: false,
      lastStartedAt: null,
      stalled: false,
    })),
  };
}
