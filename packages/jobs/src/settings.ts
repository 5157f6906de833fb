import { z } from 'zod';
import { JOB_CATALOG, JOB_NAMES, cadenceSettingName } from './jobs/jobCatalog';
import type { JobName } from './jobs/jobCatalog';

const milliseconds = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const DAY_MS = 24 * 60 * 60_000;

/** One `SVC_KEEPER_<JOB>_EVERY_MS` per catalog job: 0 turns its schedule off. */
const cadenceShape = Object.fromEntries(
  JOB_NAMES.map((name) => [
    cadenceSettingName(name),
    z.coerce
      .number()
      .int()
      .refine((value) => value === 0 || (value >= 100 && value <= DAY_MS), {
        error: `0 (off) or 100..${DAY_MS} ms`,
      })
      .default(JOB_CATALOG[name].everyMs),
  ]),
) as Record<string, z.ZodDefault<z.ZodNumber>>;

/** The keeper's own settings (`SVC_KEEPER_*`); the API reads them too (state, stats refresh). */
export const KeeperSettingsSchema = z.object({
  SVC_KEEPER_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/, { error: 'letters, digits, ":", "_" or "-" (at most 64)' })
    .default('svc:keeper'),
  SVC_KEEPER_HEALTH_HOST: z.string().default('0.0.0.0'),
  SVC_KEEPER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  SVC_KEEPER_HEARTBEAT_MS: milliseconds(100, 60_000, 5000),
  SVC_KEEPER_LOCK_MS: milliseconds(1000, 10 * 60_000, 30_000),
  SVC_KEEPER_SETTLEMENT_GIVE_UP_MS: milliseconds(1000, 30 * DAY_MS, 30 * 60_000),
  SVC_KEEPER_UNSIGNED_TTL_MS: milliseconds(60_000, 30 * DAY_MS, DAY_MS),
  SVC_KEEPER_RELEASED_WATCH_MS: milliseconds(60_000, 365 * DAY_MS, 7 * DAY_MS),
  SVC_KEEPER_RECONCILE_THRESHOLD_MICROS: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,17})$/, { error: 'an integer number of micros' })
    .default('10000'),
  SVC_KEEPER_SETTLEMENT_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  SVC_KEEPER_SETTLEMENT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(16),
  SVC_KEEPER_WEBHOOK_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  SVC_KEEPER_WEBHOOK_PER_SUBSCRIPTION: z.coerce.number().int().min(1).max(1000).default(100),
  SVC_KEEPER_WEBHOOK_RUN_BUDGET_MS: milliseconds(100, 10 * 60_000, 20_000),
  ...cadenceShape,
});

export interface KeeperSettings {
  /** Redis key prefix of the queues and the keeper's state. */
  readonly prefix: string;
  /** The keeper process's /health and /metrics endpoint (0: a free port). */
  readonly health: { readonly host: string; readonly port: number };
  readonly heartbeatMs: number;
  /** A job whose worker dies goes back to its queue after this long. */
  readonly lockMs: number;
  /**
   * The settlement watch: legs read per page, legs of a page settled at once (receipts read in
   * parallel, their ledger writes grouped), how long a submitted leg may stay pending before it
   * expires (its reservation goes back; it stays confirmable), how long an expired or cancelled
   * leg's transaction is still watched for a late landing, and how long a leg may stay unsigned.
   */
  readonly settlement: {
    /** Legs read per page. */
    readonly pageSize: number;
    /** Legs of a page settled at once. */
    readonly concurrency: number;
    /** A leg the chain still reports pending this long after submission expires. */
    readonly giveUpAfterMs: number;
    /** An expired or cancelled leg's transaction is watched this long for a late landing. */
    readonly releasedWatchMs: number;
    /** A leg left unsigned this long after its plan was prepared expires. */
    readonly unsignedTtlMs: number;
  };
  /** Reconciliation: a drift at or above this many micros raises `reconciliation.drift`. */
  readonly reconciliation: { readonly thresholdMicros: bigint };
  /**
   * Webhook delivery runs: deliveries claimed per round, how many of one subscription's in a
   * row (in order), and how long one run keeps going while deliveries are due.
   */
  readonly webhooks: {
    readonly batchSize: number;
    readonly perSubscription: number;
    readonly runBudgetMs: number;
  };
  /** Cadence per job in ms; 0 = not scheduled. */
  readonly everyMs: Readonly<Record<JobName, number>>;
}

/** The keeper settings from parsed variables. */
export function keeperSettings(env: z.infer<typeof KeeperSettingsSchema>): KeeperSettings {
  const raw = env as Record<string, unknown>;
  return {
    prefix: env.SVC_KEEPER_PREFIX,
    health: { host: env.SVC_KEEPER_HEALTH_HOST, port: env.SVC_KEEPER_HEALTH_PORT },
    heartbeatMs: env.SVC_KEEPER_HEARTBEAT_MS,
    lockMs: env.SVC_KEEPER_LOCK_MS,
    settlement: {
      pageSize: env.SVC_KEEPER_SETTLEMENT_PAGE_SIZE,
      concurrency: env.SVC_KEEPER_SETTLEMENT_CONCURRENCY,
      giveUpAfterMs: env.SVC_KEEPER_SETTLEMENT_GIVE_UP_MS,
      releasedWatchMs: env.SVC_KEEPER_RELEASED_WATCH_MS,
      unsignedTtlMs: env.SVC_KEEPER_UNSIGNED_TTL_MS,
    },
    reconciliation: { thresholdMicros: BigInt(env.SVC_KEEPER_RECONCILE_THRESHOLD_MICROS) },
    webhooks: {
      batchSize: env.SVC_KEEPER_WEBHOOK_BATCH_SIZE,
      perSubscription: env.SVC_KEEPER_WEBHOOK_PER_SUBSCRIPTION,
      runBudgetMs: env.SVC_KEEPER_WEBHOOK_RUN_BUDGET_MS,
    },
    everyMs: Object.fromEntries(
      JOB_NAMES.map((name) => [name, raw[cadenceSettingName(name)] as number]),
    ) as Record<JobName, number>,
  };
}
