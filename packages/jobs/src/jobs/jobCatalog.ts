import { apyRefreshJob } from './apyRefresh';
import { autopilotTicksJob } from './autopilotTicks';
import { bridgeExpiryJob } from './bridgeExpiry';
import { bridgeWatchJob } from './bridgeWatch';
import type { JobDefinition } from './defineJob';
import { harvestBatchJob } from './harvestBatch';
import { idempotencySweepJob } from './idempotencySweep';
import { legExpiryJob } from './legExpiry';
import { reconciliationJob } from './reconciliation';
import { settlementWatchJob } from './settlementWatch';
import { outboxRelayJob, webhookDeliveryJob } from './webhookJobs';

/**
 * Every keeper job, by name. Adding a job is one entry here plus its processor: the queue, the
 * worker, the scheduler, its cadence setting (`SVC_KEEPER_<JOB>_EVERY_MS`), run records and
 * health all follow from the entry. Each job has its own BullMQ queue (named after the job),
 * so concurrency and depths are per job.
 */
export const JOB_CATALOG = {
  'apy-refresh': apyRefreshJob,
  'settlement-watch': settlementWatchJob,
  'leg-expiry': legExpiryJob,
  'bridge-expiry': bridgeExpiryJob,
  'bridge-watch': bridgeWatchJob,
  'idempotency-sweep': idempotencySweepJob,
  'harvest-batch': harvestBatchJob,
  'autopilot-ticks': autopilotTicksJob,
  reconciliation: reconciliationJob,
  'outbox-relay': outboxRelayJob,
  'webhook-delivery': webhookDeliveryJob,
} as const satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof JOB_CATALOG;

export const JOB_NAMES = Object.keys(JOB_CATALOG) as JobName[];

/** The catalog entry of `name` (typed loosely: data is parsed by its own schema at run time). */
export function jobDefinition(name: JobName): JobDefinition {
  return JOB_CATALOG[name];
}

/** `apy-refresh` → `SVC_KEEPER_APY_REFRESH_EVERY_MS`. */
export function cadenceSettingName(name: JobName): string {
  return `SVC_KEEPER_${name.toUpperCase().replaceAll('-', '_')}_EVERY_MS`;
}
