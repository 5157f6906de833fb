import { TriggeredJobData, defineJob } from './defineJob';
import { watchSettlements } from './watchSettlements';

/** Settles legs from their receipts; expires legs pending past the window; watches late ones. */
export const settlementWatchJob = defineJob({
  summary:
    'Settles submitted legs from their receipts; expires legs pending past the window; settles expired legs that land late.',
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5_000 },
  concurrency: 1,
  everyMs: 15_000,
  process: async (_data, deps) => ({ ...(await watchSettlements(deps)) }),
});
