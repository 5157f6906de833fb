import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { KeeperHeartbeat, KeeperJobRun } from '@yieldrouter/schemas';
import type { KeeperJobSurvival, KeeperSurvivalDocument } from '@yieldrouter/schemas';
import { keeperStateKeys } from './keeperStateKeys';

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
  const [beat, lastRuns, lastSuccesses, failures] = await Promise.all([
    redis.get(keys.heartbeat),
    redis.hgetall(keys.lastRun),
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
      const cadence = alive ? (everyMs.get(job) ?? null) : null;
      // Overdue: scheduled, and nothing succeeded for two cadences since the later of the
      // last success and the keeper's start.
      const since = [lastSuccessAt, heartbeat?.startedAt]
        .filter((value): value is string => typeof value === 'string')
        .map(age);
      return {
        job,
        everyMs: cadence,
        lastRun: parseStored(KeeperJobRun, lastRuns[job]),
        lastSuccessAt,
        lastSuccessAgeMs: lastSuccessAt ? age(lastSuccessAt) : null,
        failures: Number(failures[job] ?? 0),
        overdue: cadence !== null && cadence > 0 && Math.min(...since) > 2 * cadence,
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
    })),
  };
}
