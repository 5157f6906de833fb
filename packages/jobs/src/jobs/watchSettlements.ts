import { errorMessage } from '@yieldrouter/schemas';
import { EngineError, mapWithLimit, releaseLeg, settleLeg } from '@yieldrouter/engine';
import { listOpenLegs } from '@yieldrouter/ledger';
import type { ListOpenLegsOptions, OpenLegsCursor, SettlementLeg } from '@yieldrouter/ledger';
import { JobRunError } from './defineJob';
import type { KeeperJobDeps } from './keeperJobDeps';

export interface SettlementWatchCounts {
  /** Legs looked at: submitted ones, and expired or cancelled ones carrying a transaction. */
  readonly checked: number;
  readonly confirmed: number;
  /** Failed by their own transaction's receipt (reverted). */
  readonly failed: number;
  /** Still pending on chain (inside the window, or released and still watched). */
  readonly pending: number;
  /** Pending past the window: expired, reservation released, still confirmable. */
  readonly expired: number;
  /** The transaction a leg held is not the leg's (its receipt does not match): dropped. */
  readonly dropped: number;
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

/** Every page of legs `options` selects, oldest first, each page's legs handled at once. */
async function forEachLeg(
  deps: KeeperJobDeps,
  options: Omit<ListOpenLegsOptions, 'after' | 'limit'>,
  handle: (leg: SettlementLeg) => Promise<void>,
): Promise<void> {
  let after: OpenLegsCursor | undefined;
  for (;;) {
    const page = await listOpenLegs(deps.db, {
      ...options,
      limit: deps.settlement.pageSize,
      ...(after ? { after } : {}),
    });
    // A page's legs at once: receipts are read in parallel and the ledger writes of those that
    // land together share one statement (LegSettlements).
    await mapWithLimit(page, deps.settlement.concurrency, handle);
    const last = page.at(-1);
    if (!last || page.length < deps.settlement.pageSize) return;
    after = { updatedAt: last.updatedAt, planId: last.planId, legIndex: last.legIndex };
  }
}

/**
 * The settlement watch, idempotent on the txId (a killed run repeated settles nothing twice):
 * - every submitted leg goes through `settleLeg`; one the chain still calls pending
 *   `giveUpAfterMs` after submission expires (its reservation goes back) and stays confirmable;
 * - every expired or cancelled leg carrying a transaction, for `releasedWatchMs`, goes through
 *   `settleLeg` too: a late landing settles it from where the money went back to.
 * A transaction the chain says is not the leg's is dropped from it. An unreadable chain
 * expires nothing; the run then fails and retries.
 */
export async function watchSettlements(deps: KeeperJobDeps): Promise<SettlementWatchCounts> {
  const counts = {
    checked: 0,
    confirmed: 0,
    failed: 0,
    pending: 0,
    expired: 0,
    dropped: 0,
    unavailable: 0,
    errors: 0,
  };
  const count = async (leg: SettlementLeg) => {
    counts.checked += 1;
    counts[await watchLeg(deps, leg)] += 1;
  };
  await forEachLeg(deps, { status: 'submitted' }, count);
  const since = new Date(deps.now().getTime() - deps.settlement.releasedWatchMs);
  await forEachLeg(deps, { status: 'released', changedSince: since }, count);
  if (counts.unavailable > 0 || counts.errors > 0) throw new SettlementWatchError(counts);
  return counts;
}

async function watchLeg(deps: KeeperJobDeps, leg: SettlementLeg): Promise<Outcome> {
  const txId = leg.txId as string;
  try {
    const result = await settleLeg({
      db: deps.db,
      adapters: deps.adapters,
      bridgeRail: deps.bridgeRail,
      venues: deps.venues,
      planId: leg.planId,
      legIndex: leg.legIndex,
      txId,
      now: deps.now(),
    });
    if (result.status === 'confirmed' || result.status === 'failed') {
      // A submitted leg's updatedAt is its submission.
      if (leg.status === 'submitted') {
        const waited = (deps.now().getTime() - leg.updatedAt.getTime()) / 1000;
        deps.observer?.settlement(leg.chain, result.status, waited);
      }
      return result.status;
    }
    if (leg.status !== 'submitted') return 'pending';
    const now = deps.now();
    const waitedMs = now.getTime() - leg.updatedAt.getTime();
    if (waitedMs < deps.settlement.giveUpAfterMs) return 'pending';
    const reason = `${leg.chain} still reports ${txId} pending ${Math.floor(waitedMs / 60_000)} min after submission`;
    if (!(await releaseLeg({ db: deps.db, now }, leg, 'expired', reason))) {
      return 'pending';
    }
    deps.logger.warn({ planId: leg.planId, legIndex: leg.legIndex, waitedMs }, 'leg expired');
    return 'expired';
  } catch (error) {
    if (error instanceof EngineError && error.code === 'SERVICE_UNAVAILABLE') return 'unavailable';
    // A cross-chain deposit's deposit leg: settled once its bridge is delivered.
    if (error instanceof EngineError && error.code === 'BRIDGE_NOT_DELIVERED') return 'pending';
    // Its bridge legs after a swap into USDC: settled once the swap leg is.
    if (error instanceof EngineError && error.code === 'SWAP_NOT_SETTLED') return 'pending';
    if (error instanceof EngineError && error.code === 'RECEIPT_MISMATCH') {
      deps.logger.warn(
        { planId: leg.planId, legIndex: leg.legIndex, err: error.message },
        'settlement watch: the transaction is not the leg’s; dropped',
      );
      return 'dropped';
    }
    deps.logger.error(
      { planId: leg.planId, legIndex: leg.legIndex, err: errorMessage(error) },
      'settlement watch: leg not settled',
    );
    return 'errors';
  }
}
