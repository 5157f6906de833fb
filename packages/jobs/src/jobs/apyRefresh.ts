import { refreshApy } from '@yieldrouter/engine';
import { TriggeredJobData, defineJob } from './defineJob';

/**
 * Appends one APY reading per venue to the history (discovery and 30-day means read it) and
 * replaces each venue's chain read (native TVL, deposit caps, tokens). A
 * source that fails as a whole fails the run after storing the unavailable readings, so the
 * run is retried with backoff and counted as a failure in the keeper's health.
 */
export const apyRefreshJob = defineJob({
  summary: 'Reads every venue APY from the yields source into the APY history.',
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 1,
  everyMs: 15 * 60_000,
  process: async (_data, deps) => {
    const result = await refreshApy({
      db: deps.db,
      reader: deps.apyReader,
      venues: deps.venues,
      now: deps.now,
      adapters: deps.adapters,
    });
    if (result.sourceError !== null) throw new Error(result.sourceError);
    return { venues: result.venues, ok: result.ok, unavailable: result.unavailable };
  },
});
