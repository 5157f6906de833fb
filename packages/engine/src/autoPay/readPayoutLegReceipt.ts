import { readAutoPayPayout } from '@yieldrouter/ledger';
import type { Books, SettlementLeg } from '@yieldrouter/ledger';
import type { Chain, Receipt } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { PayoutPayee } from '../wallet/recordLegOutcome';

/** An auto-pay transfer leg's receipt, and the payee the leg pays. */
export interface PayoutLegReceipt {
  readonly receipt: Receipt;
  readonly payee: PayoutPayee;
}

/**
 * Reads an auto-pay transfer leg's transaction through the chain adapter: sent by the owner,
 * tagged with the plan, and the amount is what the chain shows the leg's payee received (never
 * the planned amount).
 */
export async function readPayoutLegReceipt(
  db: Books,
  adapters: ChainAdapters,
  leg: SettlementLeg,
  txId: string,
): Promise<PayoutLegReceipt> {
  const payee = await readAutoPayPayout(db, leg.planId, leg.legIndex);
  if (!payee) throw new Error(`plan ${leg.planId} leg ${leg.legIndex}: no auto-pay payout stored`);
  const receipt = await adapters[leg.chain as Chain].readTransferReceipt({
    txId,
    planId: leg.planId,
    owner: leg.owner as string,
    recipient: payee.address,
  });
  return { receipt, payee };
}
