import { errorMessage } from '@yieldrouter/schemas';
import type { Unlisten } from '@yieldrouter/ledger';
import type { JobCounts } from './jobs/defineJob';
import type { JobName } from './jobs/jobCatalog';
import type { KeeperJobDeps } from './jobs/keeperJobDeps';
import { watchBridges } from './jobs/bridgeWatch';
import { watchSettlements } from './jobs/watchSettlements';
import { coalesced } from './wakeOnCommit';

export interface WakeOnReceiptsParameters {
  readonly deps: KeeperJobDeps;
  /** Cadences: a watch whose schedule is off (0) is not woken either. */
  readonly everyMs: Readonly<Record<JobName, number>>;
  /** How soon a watch looks again while it still expects a receipt (`RECEIPT_LOOK_MS`). */
  readonly lookMs?: number;
}

/**
 * How soon a watch looks again while it expects a receipt: a submitted leg still pending, an
 * attested bridge not yet minted. A receipt lands within a block or two of being expected.
 */
export const RECEIPT_LOOK_MS = 500;
/** Looks in a row after a wake while legs stay pending (a stuck transaction: the poll goes on). */
export const PENDING_LOOKS = 60;

/** What `wakeOnReceipts` returns. */
export interface ReceiptWakes {
  /**
   * A scheduled run of a watch ended with these counts: a bridge watch that found an attested
   * bridge awaiting its mint is followed from here as after a wake (no-op otherwise).
   */
  readonly polled: (name: JobName, counts: JobCounts) => void;
  /** Stops listening and waits for runs under way. */
  readonly stop: Unlisten;
}

/**
 * Where a receipt is expected, the watches look at once instead of at their next poll: a leg
 * turning `submitted` or a bridge burn confirmed sends `NOTIFY ledger_receipts` (migration
 * 0064), and the settlement and bridge watches run in this process. While a run still expects a
 * receipt (a submitted leg pending, for up to `PENDING_LOOKS` looks; an attested bridge whose
 * mint has not landed, for as long as it lasts: a relayer mints within seconds of the
 * attestation), it looks again `lookMs` later. The bridge watch also runs once at start (a
 * bridge attested before a restart), and an attestation its scheduled poll finds is followed the
 * same way (`polled`): the poll stays the only cadence, so attestations are read once per poll,
 * not twice. Both are safe beside their scheduled jobs (a leg's outcome is recorded once, a mint
 * credited once).
 */
export async function wakeOnReceipts({
  deps,
  everyMs,
  lookMs = RECEIPT_LOOK_MS,
}: WakeOnReceiptsParameters): Promise<ReceiptWakes> {
  const attempt = async (name: JobName, run: () => Promise<boolean>) => {
    try {
      return await run();
    } catch (error) {
      deps.logger.warn(
        { job: name, err: errorMessage(error) },
        'woken run failed: the poll goes on',
      );
      return false;
    }
  };
  const lanes: { wake: () => void; stop: () => Promise<void> }[] = [];
  let bridgeLane: { wake: () => void } | undefined;
  if (everyMs['settlement-watch'] > 0) {
    const settlements = coalesced(
      () => attempt('settlement-watch', async () => (await watchSettlements(deps)).pending > 0),
      lookMs,
      PENDING_LOOKS,
    );
    lanes.push(settlements);
  }
  const bridgeEveryMs = everyMs['bridge-watch'];
  if (bridgeEveryMs > 0 && deps.bridgeRail) {
    const bridges = coalesced(
      () =>
        attempt('bridge-watch', async () => Number((await watchBridges(deps))['awaitingMint']) > 0),
      lookMs,
    );
    lanes.push(bridges);
    bridgeLane = bridges;
    bridges.wake();
  }
  const polled = (name: JobName, counts: JobCounts) => {
    if (name === 'bridge-watch' && Number(counts['awaitingMint'] ?? 0) > 0) bridgeLane?.wake();
  };
  if (lanes.length === 0) return { polled, stop: async () => undefined };
  const unlisten = await deps.db.listen('ledger_receipts', () => {
    for (const lane of lanes) lane.wake();
  });
  return {
    polled,
    stop: async () => {
      await unlisten();
      await Promise.all(lanes.map((lane) => lane.stop()));
    },
  };
}
