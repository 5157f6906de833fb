import type { FeeSchedule } from '@yieldrouter/fees';
import { readBalancesOf } from '@yieldrouter/ledger';
import type { Books, WalletBalanceRow } from '@yieldrouter/ledger';
import type { Blocker, Chain, Opportunity } from '@yieldrouter/schemas';
import { chainGuardrailBlockers, checkGuardrails } from './checkGuardrails';
import { readGuardrails } from './readGuardrails';

/** The wallet's staked balances on `chain`: in `opportunityId`, and in every opportunity. */
export function stakedBalances(
  rows: readonly WalletBalanceRow[],
  chain: Chain,
  opportunityId: string,
): { inOpportunity: bigint; onChain: bigint } {
  let inOpportunity = 0n;
  let onChain = 0n;
  for (const row of rows) {
    if (row.chain !== chain || !row.bucket.startsWith('staked:')) continue;
    onChain += row.balanceMicros;
    if (row.bucket === `staked:${opportunityId}`) inOpportunity += row.balanceMicros;
  }
  return { inOpportunity, onChain };
}

export interface GuardrailBlockersParameters {
  /** The wallet by its ledger key. */
  readonly wallet: string;
  readonly chain: Chain;
  /** Where the money goes; none for money that stays liquid (only `allowedChains` applies). */
  readonly opportunity?: Pick<Opportunity, 'chain' | 'opportunityId' | 'grossApyBps'> | undefined;
  readonly amountMicros: bigint;
  /** What leaves another opportunity on the same chain in the same plan (a rebalance). */
  readonly leavingOnChainMicros?: bigint;
  /** The request field the amount came from. */
  readonly amountField?: string;
  readonly schedule?: FeeSchedule;
}

/**
 * The wallet's guardrails checked against money entering one opportunity (or, without one,
 * the chain), with the wallet's balances as the books hold them now: the blockers (empty when
 * it passes).
 */
export async function guardrailBlockers(
  db: Books,
  parameters: GuardrailBlockersParameters,
): Promise<Blocker[]> {
  const { wallet, opportunity } = parameters;
  if (!opportunity)
    return chainGuardrailBlockers(await readGuardrails(db, wallet), parameters.chain);
  // Both reads at once (on two of the pool's connections): a route write waits one round trip
  // for them, not two.
  const [guardrails, rows] = await Promise.all([
    readGuardrails(db, wallet),
    readBalancesOf(db, [wallet]),
  ]);
  const staked = stakedBalances(rows, opportunity.chain, opportunity.opportunityId);
  return checkGuardrails(
    guardrails,
    {
      chain: opportunity.chain,
      opportunityId: opportunity.opportunityId,
      amountMicros: parameters.amountMicros,
      stakedInOpportunityMicros: staked.inOpportunity,
      stakedOnChainMicros: staked.onChain,
      leavingOnChainMicros: parameters.leavingOnChainMicros ?? 0n,
      grossApyBps: opportunity.grossApyBps,
    },
    {
      ...(parameters.schedule ? { schedule: parameters.schedule } : {}),
      ...(parameters.amountField ? { amountField: parameters.amountField } : {}),
    },
  );
}
