import type { TrackedPosition } from '@yieldrouter/ledger';
import type { Chain, HarvestPositionResult, Opportunity } from '@yieldrouter/schemas';
import { errorMessage } from '@yieldrouter/schemas';
import { prepareStrategyPlan } from '../plan/prepareStrategyPlan';
import type { Treasuries } from '../plan/withdrawSkim';
import type { HarvestParameters } from './harvest';
import { ownerOn } from './walletAddress';

/** What a harvest with `execute: true` needs to prepare the plans that realise the yield. */
export interface YieldPlanSources {
  /** The current listing (the discovery snapshot): the positions' venues are found there. */
  readonly opportunities: readonly Opportunity[];
  /** Each chain's treasury: where the owner holds the receipts, the plan pays the skim there. */
  readonly treasuries?: Treasuries | undefined;
}

/**
 * A harvest with `execute: true` (issue #46): for every position with yield, a withdraw plan for
 * the owner to sign that realises it — the venue pays the yield above the owner's staked balance
 * and the protocol's share reaches the treasury on chain: Solana's router takes the skim in
 * `withdraw_from_venue` (the registry's fee configuration); on Sui and plain EVM venues the plan
 * carries the whole claim as its skim (`computeYieldRealisation`, packages/fees). Nothing is
 * booked here: the plan's legs settle like any withdrawal, crediting fees:protocol only from the
 * treasury's receipt. A position whose plan cannot be prepared says why (`reason`).
 */
export async function prepareYieldPlans(
  parameters: Omit<HarvestParameters, 'address' | 'recordWrite'>,
  sources: YieldPlanSources,
  positions: readonly TrackedPosition[],
  results: readonly HarvestPositionResult[],
): Promise<HarvestPositionResult[]> {
  const answers: HarvestPositionResult[] = [];
  // One plan after another: each reads its position and stores a plan (a handful per wallet).
  for (const [index, result] of results.entries()) {
    const position = positions[index];
    if (result.outcome !== 'prepared' || !position) {
      answers.push(result);
      continue;
    }
    try {
      const document = await prepareStrategyPlan({
        db: parameters.db,
        adapters: parameters.adapters,
        venues: parameters.venues,
        opportunities: sources.opportunities,
        kind: 'withdraw',
        request: {
          id: position.opportunityId,
          idField: 'opportunityId',
          amountMicros: BigInt(result.netYieldMicros),
          owner: ownerOn(parameters.adapters, position.wallet, position.chain as Chain),
          realiseYield: true,
        },
        treasuries: sources.treasuries,
        schedule: parameters.schedule,
        now: parameters.now,
      });
      answers.push({ ...result, planId: document.planId ?? null });
    } catch (error) {
      answers.push({ ...result, planId: null, reason: `plan_failed: ${errorMessage(error)}` });
    }
  }
  return answers;
}
