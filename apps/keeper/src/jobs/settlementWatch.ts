import { TriggeredJobData, defineJob } from './defineJob';
import { watchSettlements } from './watchSettlements';

/** Settles submitted legs from their receipts; gives up on legs pending past the window. */
export const settlementWatchJob = defineJob({
  summary: 'Settles submitted legs from their receipts; expires legs pending past the window.',
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5_000 },
  concurrency: 1,
  everyMs: 15_000,
  process: async (_data, deps) => ({ ...(await watchSettlements(deps)) }),
});
