import type { AccountRef, LedgerChain, PostingInput, SettlementLeg } from '@yieldrouter/ledger';
import { formatMicros } from '@yieldrouter/schemas';
import type { Chain, Receipt } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';

/**
 * The yield skim where the owner holds the venue receipts (Sui, plain EVM venues; issue #46): a
 * withdraw plan asks the owner to pay the protocol's share of what leaves the venue to the
 * chain's treasury (Sui: inside the withdrawal's transaction; EVM: its next leg, `skim`). The
 * books credit fees:protocol only with what a receipt shows the treasury received; the rest of
 * the protocol's share the owner took is a receivable (`fees:receivable`, per chain, the plan on
 * its entries), reported by reconciliation until paid and never written off.
 */

const FEES: AccountRef = { system: 'fees:protocol' };

/** The chains where the owner holds the venue receipts: our program is not in the exit's path. */
const OWNER_HELD = new Set<string>(['sui', 'base', 'arbitrum']);

/** Whether `chain`'s venue receipts are the owner's own (Sui, plain EVM venues). */
export const ownerHoldsReceipts = (chain: string): boolean => OWNER_HELD.has(chain);

/** The chain's receivable: the protocol's share an exit took that the treasury has not received. */
export const receivableAccount = (leg: Pick<SettlementLeg, 'chain'>): AccountRef => ({
  system: 'fees:receivable',
  chain: leg.chain as LedgerChain,
});

/** What the chain proved an exit moved, as `bookUnstake` reads it. */
export interface SkimMovement {
  readonly amountMicros: bigint;
  readonly shares: bigint | null;
  readonly skimMicros?: bigint;
}

/**
 * An exit of a plan that carries a skim: the skim the plan asked for is the protocol's share of
 * what the venue paid. What the treasury received in the exit's own transaction (`skimMicros`,
 * Sui) is collected; the rest (`missingMicros`: all of it on EVM, where the skim is the next leg)
 * is in the owner's hands, so the exit books it out of the owner's amount and owes it to the
 * receivable until the skim leg's receipt shows the treasury got it. The leg's bounds are moved
 * by the skim: they apply to what the owner received.
 */
export function skimmedExit(
  leg: SettlementLeg,
  movement: SkimMovement,
): {
  readonly leg: SettlementLeg;
  readonly movement: SkimMovement;
  readonly missingMicros: bigint;
} {
  const planned = leg.skim?.amountMicros ?? 0n;
  const inline = movement.skimMicros ?? 0n;
  const short = planned > inline ? planned - inline : 0n;
  const missingMicros = short < movement.amountMicros ? short : movement.amountMicros;
  const skimMicros = inline + missingMicros;
  const shift = (bound: bigint) => (bound > skimMicros ? bound - skimMicros : 0n);
  return {
    leg: {
      ...leg,
      minSettleMicros: shift(leg.minSettleMicros),
      maxSettleMicros: shift(leg.maxSettleMicros),
    },
    movement: { ...movement, amountMicros: movement.amountMicros - missingMicros, skimMicros },
    missingMicros,
  };
}

/**
 * Where an exit without a skim books the protocol's retained fees the owner took: owed to the
 * chain's receivable where the owner holds the receipts (reported until paid), else `otherwise`.
 */
export const retainedFeesTo = (leg: Pick<SettlementLeg, 'chain'>, otherwise: AccountRef) =>
  ownerHoldsReceipts(leg.chain) ? receivableAccount(leg) : otherwise;

/** `fees:protocol → fees:receivable` for what the owner holds of the protocol's share. */
export const owedPostings = (leg: SettlementLeg, micros: bigint): PostingInput[] =>
  micros > 0n
    ? [
        { account: FEES, amountMicros: -micros },
        { account: receivableAccount(leg), amountMicros: micros },
      ]
    : [];

/**
 * The skim leg's receipt (an owner-signed USDC transfer to the treasury): what the treasury
 * received leaves the chain's receivable for fees:protocol. Another amount than the plan's skim
 * is flagged; the books still follow the chain.
 */
export function bookSkimLeg(
  leg: SettlementLeg,
  receivedMicros: bigint,
): { readonly postings: PostingInput[]; readonly reviewReason: string | null } {
  const reviewReason =
    receivedMicros === leg.amountMicros
      ? null
      : `the treasury received ${formatMicros(receivedMicros)} micros; the plan's skim is ${formatMicros(leg.amountMicros)}`;
  const postings =
    receivedMicros > 0n
      ? [
          { account: receivableAccount(leg), amountMicros: -receivedMicros },
          { account: FEES, amountMicros: receivedMicros },
        ]
      : [];
  return { postings, reviewReason };
}

/** Postings netted per account (no zero lines), so an entry never names an account twice. */
export function netPostings(postings: readonly PostingInput[]): PostingInput[] {
  const lines = new Map<string, PostingInput>();
  for (const posting of postings) {
    const key = JSON.stringify(posting.account);
    const line = lines.get(key);
    lines.set(key, {
      account: posting.account,
      amountMicros: (line?.amountMicros ?? 0n) + posting.amountMicros,
    });
  }
  return [...lines.values()].filter((line) => line.amountMicros !== 0n);
}

/**
 * The skim leg's transaction through the chain adapter: sent by the owner, tagged with the plan;
 * the amount is what the chain shows the plan's treasury received (never the planned skim).
 */
export function readSkimLegReceipt(
  adapters: ChainAdapters,
  leg: SettlementLeg,
  txId: string,
): Promise<Receipt> {
  if (!leg.skim) throw new Error(`plan ${leg.planId} leg ${leg.legIndex}: no skim stored`);
  return adapters[leg.chain as Chain].readTransferReceipt({
    txId,
    planId: leg.planId,
    owner: leg.owner as string,
    recipient: leg.skim.recipient,
  });
}
