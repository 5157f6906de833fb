import { errorMessage } from '@yieldrouter/schemas';
import { EngineError, abandonPendingLeg, settleLeg } from '@yieldrouter/engine';
import { listOpenLegs } from '@yieldrouter/ledger';
import type { OpenLegsCursor, SettlementLeg } from '@yieldrouter/ledger';
import type { SettleLegResult } from '@yieldrouter/schemas';
import { JobRunError } from './defineJob';
import type { KeeperJobDeps } from './keeperJobDeps';

export interface SettlementWatchCounts {
  /** Submitted legs looked at. */
  readonly checked: number;
  readonly confirmed: number;
  /** Failed by their receipt (reverted, another amount, another plan). */
  readonly failed: number;
  /** Still pending on chain, inside the window. */
  readonly pending: number;
  /** Still pending past the window: failed, reservation released. */
  readonly expired: number;
  /** The chain could not be read; tried again on the next run. */
  readonly unavailable: number;
  /** Any other refusal (a conflict, a database error); logged. */
  readonly errors: number;
}

/** A run that left legs it could not settle: the job fails (and retries) after the full pass. */
export class SettlementWatchError extends JobRunError {
  override readonly name = 'SettlementWatchError';
  constructor(counts: SettlementWatchCounts) {
    super(
      `settlement watch: ${counts.unavailable} leg(s) on an unreadable chain, ${counts.errors} error(s)`,
      { ...counts },
    );
  }
}

type Outcome = keyof Omit<SettlementWatchCounts, 'checked'>;

/** Runs `work` over `items`, at most `limit` at a time. */
async function forEachAtOnce<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function outcomeOf(result: SettleLegResult): Outcome {
  return result.status === 'pending' ? 'pending' : result.status;
}

/**
 * The settlement watch: every submitted leg, oldest first, in pages, goes through `settleLeg`
 * (idempotent on the txId, so a killed run repeated settles nothing twice). A leg the chain
 * still calls pending `giveUpAfterMs` after submission is failed through the same path as a
 * failed receipt, which releases its reservation. An unreadable chain never expires a leg.
 */
export async function watchSettlements(deps: KeeperJobDeps): Promise<SettlementWatchCounts> {
  const counts = {
    checked: 0,
    confirmed: 0,
    failed: 0,
    pending: 0,
    expired: 0,
    unavailable: 0,
    errors: 0,
  };
  let after: OpenLegsCursor | undefined;
  for (;;) {
    const page = await listOpenLegs(deps.db, {
      status: 'submitted',
      limit: deps.settlement.pageSize,
      ...(after ? { after } : {}),
    });
    // A page's legs at once: receipts are read in parallel and the ledger writes of those that
    // land together share one statement (LegSettlements).
    await forEachAtOnce(page, deps.settlement.concurrency, async (leg) => {
      counts.checked += 1;
      counts[await watchLeg(deps, leg)] += 1;
    });
    const last = page.at(-1);
    if (!last || page.length < deps.settlement.pageSize) break;
    after = { updatedAt: last.updatedAt, planId: last.planId, legIndex: last.legIndex };
  }
  if (counts.unavailable > 0 || counts.errors > 0) throw new SettlementWatchError(counts);
  return counts;
}

async function watchLeg(deps: KeeperJobDeps, leg: SettlementLeg): Promise<Outcome> {
  const txId = leg.txId as string;
  const key = {
    db: deps.db,
    settlements: deps.settlements,
    planId: leg.planId,
    legIndex: leg.legIndex,
    txId,
  };
  try {
    const result = await settleLeg({
      ...key,
      adapters: deps.adapters,
      venues: deps.venues,
      now: deps.now(),
    });
    if (result.status !== 'pending') return outcomeOf(result);
    const now = deps.now();
    const waitedMs = now.getTime() - leg.updatedAt.getTime();
    if (waitedMs < deps.settlement.giveUpAfterMs) return 'pending';
    await abandonPendingLeg({
      ...key,
      now,
      reason: `${leg.chain} still reports ${txId} pending ${Math.floor(waitedMs / 60_000)} min after submission`,
    });
    deps.logger.warn({ planId: leg.planId, legIndex: leg.legIndex, waitedMs }, 'leg expired');
    return 'expired';
  } catch (error) {
    if (error instanceof EngineError && error.code === 'SERVICE_UNAVAILABLE') return 'unavailable';
    deps.logger.error(
      { planId: leg.planId, legIndex: leg.legIndex, err: errorMessage(error) },
      'settlement watch: leg not settled',
    );
    return 'errors';
  }
}
