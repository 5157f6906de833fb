import { refreshApy } from '@yieldrouter/engine';
import { TriggeredJobData, defineJob } from './defineJob';

/** Appends one APY reading per venue to the history (discovery and 30-day means read it). */
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
    });
    return { venues: result.venues, ok: result.ok, unavailable: result.unavailable };
  },
});
