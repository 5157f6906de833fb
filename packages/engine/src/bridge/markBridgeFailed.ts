import { recordBridgeFailure } from '@yieldrouter/ledger';
import type { Books, RecordBridgeFailureResult } from '@yieldrouter/ledger';

/** Where the owner asks for a rescue (the `bridge.failed` webhook names it). */
export const BRIDGE_RESCUE_PATH = '/api/v1/svc/bridge/rescue';

const RESCUE_HINT =
  "The amount stays in flight for the owner. POST {planId} with an owner key: once the rail's " +
  "attestation exists the answer is the mint leg on the destination, which pays only the owner's " +
  'address the burn named; report the signed mint with POST /api/v1/svc/bridge/delivery ' +
  '{planId, destTxId} and it is credited once.';

/**
 * Marks a settled, undelivered bridge failed with `reason` and sends `bridge.failed` (through
 * the outbox, with the rescue hint); the amount stays in `in_flight`. Once per bridge: a second
 * call is a replay; a delivered bridge or a burn not settled is refused (nothing written).
 */
export function markBridgeFailed(
  db: Books,
  planId: string,
  reason: string,
  now: Date,
): Promise<RecordBridgeFailureResult> {
  return recordBridgeFailure(db, {
    planId,
    reason,
    rescueHint: RESCUE_HINT,
    rescuePath: BRIDGE_RESCUE_PATH,
    now,
  });
}
