import type { StoredPlan } from '@yieldrouter/ledger';
import type { Chain, StoredPlanDocument } from '@yieldrouter/schemas';
import { Blocker, formatMicros } from '@yieldrouter/schemas';
import { z } from 'zod';
import { storedLegDocument } from './legDocument';
import { storedJson } from './storedJson';

const Blockers = z.array(Blocker);

/**
 * SPEC: `strategyId` is the bare venue id. A plan made for a venue has it; otherwise (none so
 * far) the id the plan was asked for.
 */
function strategyIdOf(plan: StoredPlan): string | undefined {
  if (plan.venueId) return plan.venueId;
  const request = plan.request;
  const asked =
    typeof request === 'object' && request !== null && !Array.isArray(request)
      ? request['id']
      : undefined;
  return typeof asked === 'string' ? asked : undefined;
}

/**
 * A stored plan as a plan document, in the shape the prepare calls answer with, plus where each
 * leg stands now (status, txId, settled amount, failure reason).
 */
export function storedPlanDocument(plan: StoredPlan): StoredPlanDocument {
  const strategyId = strategyIdOf(plan);
  return {
    planId: plan.id,
    kind: plan.kind,
    status: plan.status,
    submitted: plan.submitted,
    ownerMustSign: plan.status === 'prepared',
    feeMicros: formatMicros(plan.feeMicros),
    ...(strategyId ? { strategyId } : {}),
    ...(plan.opportunityId ? { opportunityId: plan.opportunityId } : {}),
    ...(plan.venueId ? { venueId: plan.venueId } : {}),
    chain: plan.chain as Chain,
    amountMicros: formatMicros(plan.amountMicros),
    ...(plan.owner ? { owner: plan.owner } : {}),
    ...(plan.wallet ? { wallet: plan.wallet } : {}),
    // Swap plans: the swap parts as prepared (tokens, quote, fee lines).
    ...(typeof plan.swap === 'object' && plan.swap !== null && !Array.isArray(plan.swap)
      ? plan.swap
      : {}),
    // A cross-chain plan's legs name their chain (as prepared); one-chain plans' do not.
    legs: plan.legs.some((leg) => leg.chain !== plan.chain)
      ? plan.legs.map((leg) => ({ ...storedLegDocument(leg), chain: leg.chain as Chain }))
      : plan.legs.map(storedLegDocument),
    // Stored from the catalog's Blocker shape (JSON).
    blockers: storedJson(Blockers, plan.blockers, `plan ${plan.id}'s blockers`),
    createdAt: plan.createdAt.toISOString(),
  };
}
