import { z } from 'zod';
import { listOpportunities, tickDueAutopilots } from '@yieldrouter/engine';
import { JobRunError, TriggeredJobData, defineJob } from './defineJob';
import type { JobCounts } from './defineJob';
import type { KeeperJobDeps } from './keeperJobDeps';

export const AutopilotTicksJobData = TriggeredJobData.extend({
  pageSize: z.number().int().min(1).max(1000).default(200),
});
export type AutopilotTicksJobData = z.infer<typeof AutopilotTicksJobData>;

/**
 * The autopilot's ticks for every enabled wallet whose period is due, page after page until the
 * end (wallet order). Safe to run again at any point (a killed run, a retry, two keepers): a
 * ticked wallet is not due until its next period and a period keeps one decision, so a rerun
 * ticks only what is still due. Wallets that failed are counted; the run then fails after the
 * full pass, so it is retried with backoff.
 */
export async function runAutopilotTicks(
  data: AutopilotTicksJobData,
  deps: KeeperJobDeps,
): Promise<JobCounts> {
  // One listing for the run: every wallet of the run is ranked on the same 30-day means.
  const opportunities = await listOpportunities({
    db: deps.db,
    venues: deps.venues,
    enablement: [],
    now: deps.now(),
  });
  const counts = { wallets: 0, recorded: 0, switches: 0, errors: 0, pages: 0 };
  let after: string | undefined;
  do {
    const page = await tickDueAutopilots({
      db: deps.db,
      adapters: deps.adapters,
      venues: deps.venues,
      opportunities,
      treasuries: deps.treasuries,
      pageSize: data.pageSize,
      ...(after ? { after } : {}),
      now: deps.now,
    });
    counts.pages += 1;
    counts.wallets += page.wallets;
    counts.recorded += page.recorded;
    counts.switches += page.switches;
    counts.errors += page.errors.length;
    for (const failure of page.errors) {
      deps.logger.warn({ wallet: failure.wallet, err: failure.message }, 'autopilot tick failed');
    }
    after = page.nextCursor ?? undefined;
  } while (after);
  deps.logger.info(counts, 'autopilot ticks');
  if (counts.errors > 0) {
    throw new JobRunError(`autopilot ticks: ${counts.errors} wallet(s) failed`, counts);
  }
  return counts;
}

export const autopilotTicksJob = defineJob({
  summary:
    'Ticks the autopilot of every enabled wallet whose period is due, in pages; safe to rerun.',
  data: AutopilotTicksJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 60_000 },
  concurrency: 1,
  everyMs: 15 * 60_000,
  process: runAutopilotTicks,
});
