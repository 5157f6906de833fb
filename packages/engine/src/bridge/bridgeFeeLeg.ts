import { findBridgeTransfer } from '@yieldrouter/ledger';
import type { Books, SettlementLeg } from '@yieldrouter/ledger';
import type { Chain, Receipt } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { LegOutcome } from '../wallet/recordLegOutcome';
import { bridgeLegOutcome } from './bridgeLegOutcome';

/**
 * A bridge plan's fee leg as settlement reads it: the owner's own USDC transfer (the transfer's
 * owner on the source chain: across chain families not the plan's wallet), tagged with the
 * plan, to the fee recipient stored with the transfer when it was prepared (never today's
 * setting). Confirmed with what the receipt proves paid.
 */
export async function readBridgeFeeLeg(
  db: Books,
  adapters: ChainAdapters,
  leg: SettlementLeg,
  txId: string,
): Promise<Receipt> {
  const transfer = await findBridgeTransfer(db, leg.planId);
  if (!transfer?.feeRecipient) {
    throw new Error(`plan ${leg.planId}: a bridge fee leg without its fee recipient`);
  }
  return adapters[leg.chain as Chain].readTransferReceipt({
    txId,
    planId: leg.planId,
    owner: transfer.owner,
    recipient: transfer.feeRecipient,
  });
}

/**
 * What a settled fee transfer does to the books: the owner paid the service from the wallet
 * (outside the books), so what the receipt proves paid moves from the source chain's outside to
 * fees:protocol; a reverted transfer moved nothing. Another amount than the plan's is flagged.
 */
export function bridgeFeeOutcome(
  leg: SettlementLeg,
  receipt: Extract<Receipt, { status: 'confirmed' | 'failed' }>,
): LegOutcome {
  return bridgeLegOutcome(
    leg,
    receipt,
    { system: 'fees:protocol' },
    (amount) =>
      `the owner paid ${formatMicros(amount)} micros; the plan's fee is ${formatMicros(leg.amountMicros)}`,
  );
}
