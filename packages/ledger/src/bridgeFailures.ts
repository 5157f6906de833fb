import type { Books } from './books';
import type { BridgeTransferRefusal, BridgeTransferRow } from './bridgeTransfers';
import { withLockedBridgeTransfer } from './bridgeTransfers';
import { insertOutboxEvents } from './legs';

export interface ListStalledBridgesParameters {
  /** A burn of each speed settled before this and still neither delivered nor failed is stalled. */
  readonly settledBefore: Readonly<Record<'standard' | 'fast', Date>>;
  readonly limit: number;
}

/**
 * Bridge plans whose burn settled (the amount is in `in_flight`) before their speed's cut-off
 * and that are neither delivered nor failed yet, oldest burn first.
 */
export async function listStalledBridges(
  db: Books,
  { settledBefore, limit }: ListStalledBridgesParameters,
): Promise<string[]> {
  const rows = await db.$queryRaw<{ plan_id: string }[]>`
    SELECT b.plan_id
    FROM bridge_transfers b
    JOIN plan_legs l ON l.plan_id = b.plan_id AND l.effect = 'bridge_burn'
    WHERE b.mint_tx_id IS NULL AND b.failed_at IS NULL AND l.status = 'confirmed'
      AND ((b.speed = 'standard' AND l.settled_at < ${settledBefore.standard})
        OR (b.speed = 'fast' AND l.settled_at < ${settledBefore.fast}))
    ORDER BY l.settled_at, b.plan_id
    LIMIT ${limit}`;
  return rows.map((row) => row.plan_id);
}

export interface RecordBridgeFailureParameters {
  readonly planId: string;
  /** Why it failed, for the owner (the webhook's `reason`). */
  readonly reason: string;
  /** What the owner can do now (the webhook's `rescue.hint`). */
  readonly rescueHint: string;
  /** Where a rescue is asked for, e.g. `POST /api/v1/svc/bridge/rescue`. */
  readonly rescuePath: string;
  readonly now: Date;
}

export type RecordBridgeFailureResult =
  | { readonly status: 'failed'; readonly replay: boolean; readonly transfer: BridgeTransferRow }
  | BridgeTransferRefusal;

/**
 * Marks a bridge failed, once, under the transfer's lock: `failed_at` and `failure_reason`, and
 * `bridge.failed` through the outbox in the same transaction. Nothing is posted: the amount the
 * burn moved stays in the owner's `in_flight` (a rescue delivers it to the owner). A bridge
 * already failed is a replay; one delivered, or whose burn has not settled, is refused.
 */
export async function recordBridgeFailure(
  prisma: Books,
  parameters: RecordBridgeFailureParameters,
): Promise<RecordBridgeFailureResult> {
  const { planId, reason, now } = parameters;
  return withLockedBridgeTransfer(prisma, planId, async (tx, transfer) => {
    if (transfer.mintTxId !== null) {
      return { status: 'refused', reason: `${planId} was delivered by ${transfer.mintTxId}` };
    }
    if (transfer.failedAt !== null) return { status: 'failed', replay: true, transfer };
    if (transfer.burnedMicros === null) {
      return {
        status: 'refused',
        reason: `the burn of ${planId} has not settled (${transfer.burnStatus}): nothing is in flight`,
      };
    }
    await tx.$executeRaw`
      UPDATE bridge_transfers SET failed_at = ${now}, failure_reason = ${reason}
      WHERE plan_id = ${planId}`;
    const payload = {
      wallet: transfer.owner,
      planId,
      sourceChain: transfer.sourceChain,
      destinationChain: transfer.destChain,
      amountMicros: transfer.burnedMicros.toString(),
      sourceTxId: transfer.burnTxId,
      reason,
      refundTo: transfer.recipient,
      rescue: { method: 'POST', path: parameters.rescuePath, hint: parameters.rescueHint },
    };
    await insertOutboxEvents(tx, [{ type: 'bridge.failed', wallet: transfer.owner, payload }], now);
    return {
      status: 'failed',
      replay: false,
      transfer: { ...transfer, failedAt: now, failureReason: reason },
    };
  });
}
