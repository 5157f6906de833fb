import { readOpenSkimReceivables, readTreasuryReceipts } from '@yieldrouter/ledger';
import type { Books, DriftInput } from '@yieldrouter/ledger';
import type { Chain } from '@yieldrouter/schemas';
import { errorMessage, formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { Treasuries } from '../plan/withdrawSkim';

export interface ReconcileSkimParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly treasuries?: Treasuries | undefined;
  readonly thresholdMicros: bigint;
}

const drift = (
  thresholdMicros: bigint,
  fields: Omit<DriftInput, 'aboveThreshold' | 'opportunityId' | 'venueId'>,
): DriftInput => ({
  ...fields,
  opportunityId: null,
  venueId: null,
  aboveThreshold: fields.driftMicros >= thresholdMicros,
});

/** The treasury's USDC on its chain, or a reason it could not be read. */
async function treasuryUsdc(
  adapters: ChainAdapters,
  chain: Chain,
  treasury: string,
): Promise<bigint | string> {
  try {
    const usdc = (await adapters[chain].readBalances(treasury)).find(
      (balance) => balance.asset === 'USDC',
    );
    if (!usdc) return 'no USDC balance read';
    return usdc.status === 'ok' ? usdc.amount : usdc.detail;
  } catch (error) {
    return errorMessage(error);
  }
}

/**
 * The yield skim against the books (issue #46, docs/reconciliation.md):
 * - `skim_receivable`: every withdraw plan whose exit left the protocol's share with the owner
 *   and whose skim the treasury has not received (signed without its skim leg, the leg expired or
 *   failed, or the exit showed more yield than the plan priced), per plan and owner, until paid;
 * - `treasury_below_books`: a chain's treasury holding less USDC than the books say it received
 *   (skim legs, and the skims paid inside an exit's own transaction: the Solana router's, a Sui
 *   withdrawal's split), on every chain. A treasury that cannot be read is counted unavailable.
 * The treasury receives only: more than the books (outside money) is no drift.
 */
export async function reconcileSkim(
  parameters: ReconcileSkimParameters,
): Promise<{ readonly drifts: DriftInput[]; readonly unavailable: number }> {
  const { thresholdMicros } = parameters;
  const drifts: DriftInput[] = (await readOpenSkimReceivables(parameters.db))
    .filter((row) => row.owedMicros > 0n)
    .map((row) =>
      drift(thresholdMicros, {
        wallet: row.owner ?? row.planId,
        chain: row.chain,
        kind: 'skim_receivable',
        booksMicros: row.owedMicros,
        chainMicros: 0n,
        driftMicros: row.owedMicros,
        cause: `plan ${row.planId}: the owner holds ${formatMicros(row.owedMicros)} micros of the protocol's skim the treasury has not received`,
      }),
    );
  let unavailable = 0;
  const received = await readTreasuryReceipts(parameters.db);
  for (const [chain, booked] of received) {
    const treasury = parameters.treasuries?.[chain as Chain];
    if (!treasury || booked <= 0n) continue;
    const held = await treasuryUsdc(parameters.adapters, chain as Chain, treasury);
    if (typeof held === 'string') {
      unavailable += 1;
      continue;
    }
    if (held >= booked) continue;
    drifts.push(
      drift(thresholdMicros, {
        wallet: treasury,
        chain,
        kind: 'treasury_below_books',
        booksMicros: booked,
        chainMicros: held,
        driftMicros: booked - held,
        cause: `the treasury holds ${formatMicros(held)} USDC micros; the books say skims paid it ${formatMicros(booked)}`,
      }),
    );
  }
  return { drifts, unavailable };
}
