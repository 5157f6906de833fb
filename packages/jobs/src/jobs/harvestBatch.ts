import { z } from 'zod';
import { harvestBatch } from '@yieldrouter/engine';
import { Chain } from '@yieldrouter/schemas';
import { JobRunError, TriggeredJobData, defineJob } from './defineJob';
import type { JobCounts } from './defineJob';
import type { KeeperJobDeps } from './keeperJobDeps';

export const HarvestBatchJobData = TriggeredJobData.extend({
  chain: Chain.optional(),
  pageSize: z.number().int().min(1).max(500).default(100),
});
export type HarvestBatchJobData = z.infer<typeof HarvestBatchJobData>;

/**
 * The permissionless harvest over every staked wallet, page after page until the end. Safe to
 * run again at any point (a killed run, a retry): a position harvested already has no yield
 * left to book until more accrues on chain. Wallets that failed are counted; the run then fails
 * after the full pass, so it is retried with backoff.
 */
export async function runHarvestBatch(
  data: HarvestBatchJobData,
  deps: KeeperJobDeps,
): Promise<JobCounts> {
  const counts = { wallets: 0, harvested: 0, noYield: 0, unavailable: 0, errors: 0, pages: 0 };
  let grossYieldMicros = 0n;
  let after: string | undefined;
  do {
    const page = await harvestBatch({
      db: deps.db,
      adapters: deps.adapters,
      venues: deps.venues,
      treasuries: deps.treasuries,
      ...(data.chain ? { chain: data.chain } : {}),
      pageSize: data.pageSize,
      ...(after ? { after } : {}),
      now: deps.now,
    });
    counts.pages += 1;
    counts.wallets += page.wallets;
    counts.harvested += page.positions.harvested;
    counts.noYield += page.positions.noYield;
    counts.unavailable += page.positions.unavailable;
    counts.errors += page.errors.length;
    grossYieldMicros += BigInt(page.grossYieldMicros);
    for (const failure of page.errors) {
      deps.logger.warn({ wallet: failure.wallet, err: failure.message }, 'harvest failed');
    }
    after = page.nextCursor ?? undefined;
  } while (after);
  deps.logger.info({ ...counts, grossYieldMicros: String(grossYieldMicros) }, 'harvest batch');
  if (counts.errors > 0) {
    throw new JobRunError(`harvest batch: ${counts.errors} wallet(s) failed`, counts);
  }
  return counts;
}

export const harvestBatchJob = defineJob({
  summary: 'Harvests every staked wallet (permissionless), in pages; safe to run again.',
  data: HarvestBatchJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 60_000 },
  concurrency: 1,
  everyMs: 6 * 60 * 60_000,
  process: runHarvestBatch,
});
