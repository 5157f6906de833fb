import { expireStalledBridges } from '@yieldrouter/engine';
import { TriggeredJobData, defineJob } from './defineJob';
import type { JobCounts } from './defineJob';
import type { KeeperJobDeps } from './keeperJobDeps';

/**
 * Fails the bridges whose attestation did not come within their rail's window
 * (`SVC_CCTP_ATTESTATION_WINDOW_<SPEED>_MS` after the burn settled): each sends `bridge.failed`
 * and becomes rescuable by its owner; the amount stays in flight. Without a rail (no bridge
 * settings) there is nothing to read and nothing is failed.
 */
export async function runBridgeExpiry(deps: KeeperJobDeps): Promise<JobCounts> {
  if (!deps.bridgeRail || !deps.bridges) return { failed: 0, attested: 0, skipped: 0, deferred: 0 };
  const counts = await expireStalledBridges({
    db: deps.db,
    rail: deps.bridgeRail,
    bridges: deps.bridges,
    now: deps.now(),
    limit: deps.settlement.pageSize,
  });
  if (counts.failed > 0) deps.logger.warn(counts, 'bridges failed: attestation window expired');
  return { ...counts };
}

export const bridgeExpiryJob = defineJob({
  summary: "Fails bridges not attested within the rail's window (bridge.failed; rescuable).",
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 1,
  everyMs: 60_000,
  process: async (_data, deps) => runBridgeExpiry(deps),
});
