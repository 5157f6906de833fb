import { errorMessage } from '@yieldrouter/schemas';
import { releaseLeg } from '@yieldrouter/engine';
import { listOpenLegs } from '@yieldrouter/ledger';
import { JobRunError, TriggeredJobData, defineJob } from './defineJob';
import type { JobCounts } from './defineJob';
import type { KeeperJobDeps } from './keeperJobDeps';

/**
 * Expires legs left unsigned past the TTL (`SVC_KEEPER_UNSIGNED_TTL_MS`, 24 h by default): each
 * becomes `expired` and its reservation goes back (pending_in → external, pending_out →
 * liquid), so a plan prepared and never signed cannot hold a wallet's liquid for good. The leg
 * stays confirmable: if the owner signs and the chain runs it later, settling it by its txId
 * books it. Pages of the oldest first until none is left; a leg that moved meanwhile is left
 * for the next run. Safe to run again at any point.
 */
export async function expireUnsignedLegs(deps: KeeperJobDeps): Promise<JobCounts> {
  const counts = { expired: 0, skipped: 0, errors: 0 };
  const now = deps.now();
  const preparedBefore = new Date(now.getTime() - deps.settlement.unsignedTtlMs);
  const hours = Math.round(deps.settlement.unsignedTtlMs / 3_600_000);
  for (;;) {
    const page = await listOpenLegs(deps.db, {
      status: 'unsigned',
      preparedBefore,
      limit: deps.settlement.pageSize,
    });
    const before = counts.expired;
    for (const leg of page) {
      try {
        const released = await releaseLeg(
          { db: deps.db, now },
          leg,
          'expired',
          `unsigned ${hours} h after the plan was prepared`,
        );
        counts[released ? 'expired' : 'skipped'] += 1;
      } catch (error) {
        counts.errors += 1;
        deps.logger.error(
          { planId: leg.planId, legIndex: leg.legIndex, err: errorMessage(error) },
          'leg expiry: leg not released',
        );
      }
    }
    // A page that released nothing would come back the same: stop until the next run.
    if (page.length < deps.settlement.pageSize || counts.expired === before) break;
  }
  if (counts.expired > 0) deps.logger.info(counts, 'unsigned legs expired');
  if (counts.errors > 0) throw new JobRunError(`leg expiry: ${counts.errors} error(s)`, counts);
  return counts;
}

export const legExpiryJob = defineJob({
  summary: 'Expires legs left unsigned past the TTL; their reservations go back.',
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 1,
  everyMs: 60_000,
  process: async (_data, deps) => expireUnsignedLegs(deps),
});
