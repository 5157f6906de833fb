import type { AccountRef, LedgerChain, SettlementLeg } from '@yieldrouter/ledger';
import type { Receipt } from '@yieldrouter/schemas';
import type { LegOutcome } from '../wallet/recordLegOutcome';

/**
 * A bridge leg's receipt in the books: the money left the owner's wallet (outside the books), so
 * what the receipt proves moved goes from the leg's chain's outside to `to`; a reverted leg moves
 * nothing. `differs` says why an amount other than the leg's is flagged for review.
 */
export function bridgeLegOutcome(
  leg: SettlementLeg,
  receipt: Extract<Receipt, { status: 'confirmed' | 'failed' }>,
  to: AccountRef,
  differs: (amount: bigint) => string,
): LegOutcome {
  if (receipt.status === 'failed') {
    return { status: 'failed', reason: `failed: ${receipt.reason}`, postings: [], position: null };
  }
  const amount = receipt.amountMicros;
  return {
    status: 'confirmed',
    amountMicros: amount,
    shares: null,
    reviewReason: amount === leg.amountMicros ? null : differs(amount),
    postings:
      amount > 0n
        ? [
            {
              account: { system: 'external', chain: leg.chain as LedgerChain },
              amountMicros: -amount,
            },
            { account: to, amountMicros: amount },
          ]
        : [],
    position: null,
  };
}
