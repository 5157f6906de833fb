import { z } from 'zod';
import { Chain } from './chains';
import { MicrosOut } from './money';

// The keeper's state as the keeper records it in Redis and the keeper-only routes serve it.

const Iso = z.string().meta({ description: 'ISO 8601 timestamp.' });

/** One run of a keeper job: what it did, or why it failed. */
export const KeeperJobRun = z.object({
  jobId: z.string(),
  attempt: z.number().int().min(1).meta({ description: '1 for the first try, then retries.' }),
  trigger: z.enum(['schedule', 'manual']),
  startedAt: Iso,
  finishedAt: Iso,
  ok: z.boolean(),
  durationMs: z.number().int().min(0),
  counts: z
    .record(z.string(), z.number().int())
    .meta({ description: 'What the run did, per job (e.g. confirmed, failed, pending legs).' }),
  error: z.string().nullable().meta({ description: 'The failure message; null when ok.' }),
});
export type KeeperJobRun = z.infer<typeof KeeperJobRun>;

/** Written by a running keeper every few seconds; expires when the keeper stops writing it. */
export const KeeperHeartbeat = z.object({
  at: Iso,
  startedAt: Iso,
  pid: z.number().int(),
  hostname: z.string(),
  mode: z
    .enum(['process', 'in-api'])
    .meta({ description: 'Its own process, or inside the API (embedded database).' }),
  staleAfterMs: z
    .number()
    .int()
    .meta({ description: 'A heartbeat older than this means the keeper is gone.' }),
  jobs: z.array(
    z.object({
      job: z.string(),
      everyMs: z.number().int().min(0).meta({ description: 'Cadence; 0 = not scheduled.' }),
    }),
  ),
});
export type KeeperHeartbeat = z.infer<typeof KeeperHeartbeat>;

export const KeeperJobSurvival = z.object({
  job: z.string(),
  everyMs: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The running keeper's cadence; null when no keeper is alive." }),
  lastRun: KeeperJobRun.nullable(),
  lastSuccessAt: Iso.nullable(),
  lastSuccessAgeMs: z.number().int().nullable(),
  failures: z.number().int().min(0).meta({ description: 'Failed runs recorded so far.' }),
  overdue: z.boolean().meta({
    description:
      'Scheduled, and no successful run for more than two cadences (since the keeper started).',
  }),
  lastStartedAt: Iso.nullable().meta({ description: 'When its last run started.' }),
  stalled: z.boolean().meta({
    description:
      'Scheduled, no run under way, and no run at all (ok or failed) for more than two cadences plus a grace (the longer of three heartbeats and 5 s) since the keeper started: nothing runs the job (its schedule is gone or no worker takes it). A keeper process then answers /health 503.',
  }),
});
export type KeeperJobSurvival = z.infer<typeof KeeperJobSurvival>;

export const KeeperSurvivalDocument = z.object({
  schemaVersion: z.literal('svc-keeper-survival.v1'),
  alive: z.boolean(),
  reason: z
    .enum(['redis_unavailable', 'no_heartbeat'])
    .nullable()
    .meta({ description: 'Why alive is false; null when alive.' }),
  checkedAt: Iso,
  heartbeat: KeeperHeartbeat.extend({ ageMs: z.number().int() }).nullable(),
  jobs: z.array(KeeperJobSurvival),
});
export type KeeperSurvivalDocument = z.infer<typeof KeeperSurvivalDocument>;

export const DependencyCheck = z.object({
  status: z.enum(['up', 'down']),
  latencyMs: z.number().int().nullable(),
  detail: z.string().nullable(),
});
export type DependencyCheck = z.infer<typeof DependencyCheck>;

export const KeeperQueueHealth = z.object({
  job: z.string(),
  queue: z.string().meta({ description: 'BullMQ queue name (one queue per job).' }),
  waiting: z.number().int(),
  active: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int().meta({ description: 'Failed jobs kept in the queue (last 500).' }),
  oldestWaitingAgeMs: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'Lag: how long the oldest waiting job has waited; null when none.' }),
});
export type KeeperQueueHealth = z.infer<typeof KeeperQueueHealth>;

export const OpsHealthDocument = z.object({
  schemaVersion: z.literal('svc-ops-health.v1'),
  status: z.enum(['ok', 'degraded', 'down']).meta({
    description:
      'down: the database or Redis is unreachable; degraded: no live keeper, or a job overdue or stalled.',
  }),
  checkedAt: Iso,
  database: DependencyCheck,
  redis: DependencyCheck,
  keeper: KeeperSurvivalDocument,
  queues: z.array(KeeperQueueHealth),
});
export type OpsHealthDocument = z.infer<typeof OpsHealthDocument>;

/** What a keeper-only trigger (stats refresh, harvest batch) queued. */
export const KeeperEnqueueResult = z.object({
  schemaVersion: z.literal('svc-keeper-enqueued.v1'),
  job: z.string(),
  jobId: z.string(),
  state: z
    .string()
    .meta({ description: 'BullMQ state at answer time (waiting, active, completed, …).' }),
  enqueuedAt: Iso,
  keeperAlive: z
    .boolean()
    .meta({ description: 'False: nothing will run the job until a keeper starts.' }),
});
export type KeeperEnqueueResult = z.infer<typeof KeeperEnqueueResult>;

export const HarvestBatchRequest = z.strictObject({
  chain: Chain.optional(),
  pageSize: z.number().int().min(1).max(500).optional(),
});

export const HarvestBatchDocument = z
  .strictObject({
    schemaVersion: z.literal('harvest-plan.v1'),
    chain: Chain.nullable(),
    wallets: z.number().int().meta({ description: 'Wallets with a staked position in the page.' }),
    positions: z.strictObject({
      harvested: z.number().int(),
      noYield: z.number().int(),
      unavailable: z.number().int(),
    }),
    grossYieldMicros: MicrosOut,
    feeMicros: MicrosOut.meta({ description: 'Skim plus profit fee, to protocol fees.' }),
    netYieldMicros: MicrosOut,
    errors: z.array(z.strictObject({ wallet: z.string(), message: z.string() })),
    nextCursor: z.string().nullable().meta({
      description:
        'The last wallet of a full page: pass it as `after` for the next; null at the end.',
    }),
    startedAt: z.string(),
    finishedAt: z.string(),
  })
  .meta({ description: 'One page of the permissionless harvest over staked wallets.' });
export type HarvestBatchDocument = z.infer<typeof HarvestBatchDocument>;
