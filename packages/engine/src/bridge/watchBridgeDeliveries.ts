import { listInFlightBridges, markFailedBridgeWatched } from '@yieldrouter/ledger';
import type { BridgeTransferRow, Books } from '@yieldrouter/ledger';
import type { Chain } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import type { BridgeRail } from './bridgeRail';
import { confirmBridgeDelivery } from './confirmBridgeDelivery';
import type { MintSimulationAdapters } from './mintSimulation';

export interface WatchBridgeDeliveriesParameters {
  readonly db: Books;
  readonly rail: BridgeRail | undefined;
  /** The destination chains' adapters: a found mint is compared with its simulation there. */
  readonly adapters: MintSimulationAdapters;
  /** Transfers read per page. */
  readonly pageSize: number;
  /**
   * A failed bridge (still deliverable late) is looked at only when its last look is at least
   * this old (`SVC_BRIDGE_FAILED_WATCH_MS`); unset: on every pass, like one in flight.
   */
  readonly failedWatchMs?: number;
  readonly now: () => Date;
  /** Called with each transfer that could not be looked at (the run goes on). */
  readonly onError?: (planId: string, error: unknown) => void;
}

/** What one pass did: credited, still waiting (attestation or mint), refused mints, errors. */
export interface WatchBridgeDeliveriesCounts {
  delivered: number;
  awaitingAttestation: number;
  awaitingMint: number;
  refused: number;
  errors: number;
}

type Step = Exclude<keyof WatchBridgeDeliveriesCounts, 'errors'>;

async function watchOne(
  parameters: WatchBridgeDeliveriesParameters,
  rail: BridgeRail & Required<Pick<BridgeRail, 'findMint'>>,
  transfer: BridgeTransferRow,
): Promise<Step> {
  if (!transfer.burnTxId) return 'awaitingAttestation';
  const lane = {
    sourceChain: transfer.sourceChain as Chain,
    destChain: transfer.destChain as Chain,
  };
  const attestation = await rail.readAttestation(lane, transfer.burnTxId);
  if (attestation.status === 'unavailable') {
    throw new Error(`attestation: ${attestation.detail}`);
  }
  if (attestation.status === 'pending') return 'awaitingAttestation';
  const found = await rail.findMint({ lane, nonce: attestation.nonce });
  if (found.status === 'unavailable') throw new Error(`${lane.destChain}: ${found.detail}`);
  if (found.status === 'not_found') return 'awaitingMint';
  try {
    // The same path as POST /svc/bridge/delivery: the receipt proves the amount and recipient,
    // and the delivery is recorded once under the transfer's lock (a replay credits nothing).
    await confirmBridgeDelivery({
      db: parameters.db,
      rail,
      adapters: parameters.adapters,
      planId: transfer.planId,
      destTxId: found.txId,
      now: parameters.now(),
    });
    return 'delivered';
  } catch (error) {
    if (
      error instanceof EngineError &&
      (error.code === 'RECEIPT_MISMATCH' || error.code === 'BRIDGE_NOT_DELIVERABLE')
    ) {
      return error.code === 'RECEIPT_MISMATCH' ? 'refused' : 'awaitingMint';
    }
    throw error;
  }
}

/**
 * The keeper's bridge watch: for every bridge in flight (burn settled, no delivery), reads the
 * attestation and, once it exists, searches the destination for the transaction that received
 * the message (the owner's or any relayer's); a found mint is credited through the same path as
 * POST /svc/bridge/delivery — from the mint receipt, once (the delivery's unique keys make a
 * second keeper, a restart or the owner's report a replay). A mint that is not the plan's (other
 * amount or recipient) is refused and credits nothing; an unreadable source is counted as an
 * error and looked at again next run. A failed bridge is still watched (its mint may come late
 * and credits the same way), but once per `failedWatchMs` rather than every pass. Expiry of a
 * stalled bridge is not decided here.
 */
export async function watchBridgeDeliveries(
  parameters: WatchBridgeDeliveriesParameters,
): Promise<WatchBridgeDeliveriesCounts> {
  const counts: WatchBridgeDeliveriesCounts = {
    delivered: 0,
    awaitingAttestation: 0,
    awaitingMint: 0,
    refused: 0,
    errors: 0,
  };
  const { rail } = parameters;
  if (!rail?.findMint) return counts;
  const searching = rail as BridgeRail & Required<Pick<BridgeRail, 'findMint'>>;
  const { failedWatchMs } = parameters;
  const failedWatchedBefore =
    failedWatchMs === undefined ? undefined : new Date(parameters.now().getTime() - failedWatchMs);
  let after: { createdAt: Date; planId: string } | undefined;
  for (;;) {
    const page = await listInFlightBridges(parameters.db, {
      limit: parameters.pageSize,
      ...(after ? { after } : {}),
      ...(failedWatchedBefore ? { failedWatchedBefore } : {}),
    });
    for (const transfer of page) {
      try {
        const step = await watchOne(parameters, searching, transfer);
        counts[step] += 1;
        // Looked at: the next look at a failed bridge waits `failedWatchMs` (an unreadable
        // source is not a look, so it is retried on the next pass).
        if (transfer.failedAt !== null && step !== 'delivered') {
          await markFailedBridgeWatched(parameters.db, transfer.planId, parameters.now());
        }
      } catch (error) {
        counts.errors += 1;
        parameters.onError?.(transfer.planId, error);
      }
    }
    const last = page[page.length - 1];
    if (!last || page.length < parameters.pageSize) break;
    after = { createdAt: last.createdAt, planId: last.planId };
  }
  return counts;
}
