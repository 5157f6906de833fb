import { findBridgeTransfer } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import { formatMicros } from '@yieldrouter/schemas';
import { EngineError } from '../errors';

/**
 * A cross-chain deposit's deposit leg (effect `bridged_stake`) deposits what its plan's bridge
 * delivers: it is sent and settles only once that bridge is delivered and credited on the
 * destination, for at least the leg's amount (never an overdraft of liquid). Earlier, or short:
 * 409 BRIDGE_NOT_DELIVERED, nothing sent or recorded.
 */
export async function requireBridgeDelivered(
  db: Books,
  leg: { readonly planId: string; readonly legIndex: number; readonly amountMicros: bigint },
): Promise<void> {
  const transfer = await findBridgeTransfer(db, leg.planId);
  const delivered = transfer?.deliveredMicros ?? null;
  if (delivered !== null && delivered >= leg.amountMicros) return;
  const why =
    delivered !== null
      ? `it delivered ${formatMicros(delivered)} micros, less than the ${formatMicros(leg.amountMicros)} this leg deposits`
      : `it is ${transfer?.burnedMicros === null || !transfer ? 'awaiting its burn' : 'in flight'}`;
  throw new EngineError(
    'BRIDGE_NOT_DELIVERED',
    `leg ${leg.legIndex} of ${leg.planId} deposits what the plan's bridge delivers, and ${why}: ` +
      'sign and settle the burn, then deliver it (POST /api/v1/svc/bridge/delivery), then this leg',
    'legIndex',
  );
}
