import {
  IDEMPOTENCY_RETENTION_MS,
  foldBalanceShards,
  sweepIdempotencyKeys,
} from '@yieldrouter/ledger';
import { TriggeredJobData, defineJob } from './defineJob';

/**
 * Deletes Idempotency-Key records past their retention (24 h), and folds the system accounts'
 * balance shards of idle backends (migration 0050) so they stay about one row per connection.
 */
export const idempotencySweepJob = defineJob({
  summary: 'Deletes Idempotency-Key records older than their retention; folds idle balance shards.',
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 60_000 },
  concurrency: 1,
  everyMs: 60 * 60_000,
  process: async (_data, deps) => ({
    deleted: await sweepIdempotencyKeys(
      deps.db,
      new Date(deps.now().getTime() - IDEMPOTENCY_RETENTION_MS),
    ),
    folded: await foldBalanceShards(deps.db),
  }),
});
