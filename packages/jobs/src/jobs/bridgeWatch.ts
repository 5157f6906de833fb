import { watchBridgeDeliveries } from '@yieldrouter/engine';
import { errorMessage } from '@yieldrouter/schemas';
import { JobRunError, TriggeredJobData, defineJob } from './defineJob';
import type { JobCounts } from './defineJob';
import type { KeeperJobDeps } from './keeperJobDeps';

/**
 * Credits bridges whose mint happened: see `watchBridgeDeliveries` (failed bridges too, once per
 * `SVC_BRIDGE_FAILED_WATCH_MS`). A run with transfers it could not read fails with its counts
 * (BullMQ retries; the next schedule looks again).
 */
export async function watchBridges(deps: KeeperJobDeps): Promise<JobCounts> {
  const counts = await watchBridgeDeliveries({
    db: deps.db,
    rail: deps.bridgeRail,
    adapters: deps.adapters,
    pageSize: deps.settlement.pageSize,
    ...(deps.bridges ? { failedWatchMs: deps.bridges.failedWatchMs } : {}),
    now: deps.now,
    onError: (planId, error) =>
      deps.logger.warn({ planId, err: errorMessage(error) }, 'bridge watch: not read'),
  });
  if (counts.delivered > 0) deps.logger.info(counts, 'bridges delivered');
  if (counts.errors > 0) {
    throw new JobRunError(`bridge watch: ${counts.errors} error(s)`, { ...counts });
  }
  return { ...counts };
}

export const bridgeWatchJob = defineJob({
  summary:
    'Credits bridges in flight once their attested message was minted on the destination (found by its nonce), from the mint receipt, once.',
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5_000 },
  concurrency: 1,
  everyMs: 10_000,
  process: async (_data, deps) => watchBridges(deps),
});
