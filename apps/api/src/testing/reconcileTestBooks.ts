import { createChainAdapters, reconcileBooks } from '@yieldrouter/engine';
import type { DriftTotals, ReconcileReport } from '@yieldrouter/engine';
import type { TestApp } from './startTestApp';

/**
 * Reconciles the test app's books against its chains (`pnpm ledger:reconcile`'s run), with the
 * app's own chain adapters and venues. Threshold 0: any drift counts as above it.
 */
export function reconcileTestBooks(t: TestApp): Promise<ReconcileReport> {
  return reconcileBooks({
    db: t.db,
    adapters: createChainAdapters({
      chains: t.config.chains,
      ids: t.config.onChainIds,
      switches: t.config.switches,
    }),
    venues: t.config.venues,
    thresholdMicros: 0n,
    trigger: 'cli',
    now: () => new Date(),
  });
}

/** The drift kinds a run found, with their count and size (`{}` when the books match the chain). */
export function driftsFound(report: ReconcileReport): Partial<DriftTotals> {
  return Object.fromEntries(
    Object.entries(report.drifts).filter(([, total]) => total.count > 0),
  ) as Partial<DriftTotals>;
}
