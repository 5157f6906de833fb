import { reconcileBooks } from '@yieldrouter/engine';
import type { ReconcileReport } from '@yieldrouter/engine';
import { TriggeredJobData, defineJob } from './defineJob';
import type { JobCounts } from './defineJob';
import type { KeeperJobDeps } from './keeperJobDeps';

/**
 * A report as run counts (kept with the run in Redis; /metrics reads the last one). Counts
 * only: the drifts' sizes are money, kept exact in `reconciliation_drifts` and the events.
 */
export function reconciliationCounts(report: ReconcileReport): JobCounts {
  const counts: Record<string, number> = {
    positions: report.positions,
    unavailable: report.unavailable,
    aboveThreshold: report.aboveThreshold,
  };
  for (const [kind, total] of Object.entries(report.drifts)) counts[`drifts.${kind}`] = total.count;
  return counts;
}

/**
 * Compares the books with the chain (`reconcileBooks`): every drift is recorded with its size
 * and cause; those above `SVC_KEEPER_RECONCILE_THRESHOLD_MICROS` raise `reconciliation.drift`.
 * Read-only on the books, so safe to run again at any point.
 */
export const reconciliationJob = defineJob({
  summary: 'Compares the books with the chain; records every drift, raises those above threshold.',
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 60_000 },
  concurrency: 1,
  everyMs: 60 * 60_000,
  process: async (data, deps: KeeperJobDeps) => {
    const report = await reconcileBooks({
      db: deps.db,
      adapters: deps.adapters,
      venues: deps.venues,
      treasuries: deps.treasuries,
      thresholdMicros: deps.reconciliation.thresholdMicros,
      trigger: data.trigger,
      now: deps.now,
    });
    const counts = reconciliationCounts(report);
    deps.logger[report.aboveThreshold > 0 ? 'warn' : 'info'](
      {
        runId: report.runId,
        ...counts,
        driftMicros: Object.fromEntries(
          Object.entries(report.drifts).map(([kind, total]) => [kind, total.micros.toString()]),
        ),
      },
      'reconciliation',
    );
    return counts;
  },
});
