import { createChainAdapters, reconcileBooks } from '@yieldrouter/engine';
import type { DriftTotals, ReconcileReport } from '@yieldrouter/engine';
import { readAccountBalance } from '@yieldrouter/ledger';
import type { LedgerChain } from '@yieldrouter/ledger';
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
    treasuries: t.config.treasuries,
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

/** What the books say is owed to the chain's treasury (`fees:receivable`, migration 0055). */
export async function receivableOf(t: TestApp, chain: LedgerChain): Promise<bigint> {
  // A system account: its row plus its shards (migration 0050).
  return readAccountBalance(t.db, { system: 'fees:receivable', chain });
}

/** The run raised exactly one `skim_receivable` of `micros`, naming `owner` on `chain`. */
export async function expectOneSkimReceivable(
  t: TestApp,
  report: ReconcileReport,
  expected: { readonly owner: string; readonly chain: LedgerChain; readonly micros: bigint },
): Promise<void> {
  expect(report.drifts.skim_receivable).toEqual({ count: 1, micros: expected.micros });
  const drift = await t.db.reconciliationDrift.findFirstOrThrow({
    where: { runId: report.runId, kind: 'skim_receivable' },
  });
  expect(drift).toMatchObject({
    wallet: expected.owner,
    chain: expected.chain,
    driftMicros: expected.micros,
  });
}
