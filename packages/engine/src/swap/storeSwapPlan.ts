import type { ChainAdapter, LegBuild, SwapPlanDocument } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { planDocument, planRecord, withUnwrapLegs } from '../plan/planDocument';
import { storePlan } from '../plan/storePlan';
import { withSimulation } from '../simulation/simulatePlan';
import type { PlanStore } from '../plan/storePlan';
import type { QuotedSwapLegParameters } from './priceSwap';
import { swapTargetOf, swapVenuesOf } from './swapQuoteSource';
import type { SwapQuote, SwapQuoteSource } from './swapQuoteSource';
import { quoteSwapPlan, swapPlanParts } from './swapPlanSteps';
import type { SwapPlanBasis, SwapPlanFees } from './swapPlanSteps';

/**
 * Stores a swap plan (prepared or blocked) with what its swap leg's settlement reads (`plans.swap`:
 * the tokens' addresses, the minimum out, the fee recipient, the contract or program the swap
 * calls), and answers its document.
 */
export async function storeSwapPlan(
  store: PlanStore,
  basis: SwapPlanBasis,
  outcome: {
    readonly build: LegBuild;
    /** The quote and its fees when the plan is prepared, and what the swap leg calls. */
    readonly priced:
      | { readonly quote: SwapQuote; readonly fees: SwapPlanFees; readonly swapTarget: string }
      | undefined;
    readonly now: Date;
    /** The chain's adapter: the legs are simulated on it (issue 44). */
    readonly adapter?: Pick<ChainAdapter, 'simulateLegs'>;
  },
): Promise<SwapPlanDocument> {
  const { chain, owner, input, output, slippageBps, serviceFee } = basis;
  const { priced } = outcome;
  const amountIn = basis.amountInMicros;
  const swapParts = swapPlanParts({ input, output, amountInMicros: amountIn, slippageBps, priced });
  const parts = {
    planId: basis.planId,
    kind: 'swap' as const,
    chain,
    amountMicros: amountIn,
    feeMicros: priced ? priced.fees.feeMicros : serviceFee.amountMicros,
    build: outcome.build,
    disclosure: { owner, ...swapParts },
    createdAt: outcome.now,
  };
  const feeRecipient = serviceFee.bps > 0 ? (basis.feeRecipient ?? null) : null;
  // Issue 44: the legs simulated on their chain, stored with the plan and shown in its answer;
  // the contracts the swap calls and is allowed to are its venues, the fee recipient the treasury.
  const { plan, document } = await withSimulation(
    { [chain]: outcome.adapter },
    {
      plan: withUnwrapLegs(
        planRecord(parts, {
          venueId: null,
          owner,
          wallet: owner,
          request: {
            chain,
            owner,
            inputToken: input.symbol,
            outputToken: output.symbol,
            amountInMicros: formatMicros(amountIn),
            slippageBps,
          },
          // The swap leg settles from its receipt: the amount out is what the chain paid the owner.
          effect: 'swap',
          swap: {
            ...swapParts,
            inputTokenAddress: input.address,
            outputTokenAddress: output.address,
            feeRecipient,
            ...(priced ? { swapTarget: priced.swapTarget } : {}),
          },
        }),
      ),
      document: planDocument(parts) as SwapPlanDocument,
    },
    {
      venue: priced ? swapVenuesOf(priced.quote) : [],
      treasury: feeRecipient ? [feeRecipient] : [],
    },
  );
  await storePlan(store, plan);
  return document;
}

/**
 * The rest of every chain's swap plan once its request is read (`beginSwapPlan`): one quote
 * through the chain's source, priced (`quoteSwapPlan`: blocked naming `settings` when there is no
 * source or fee recipient, or with the source's reason), the legs built by the family's
 * `buildLegs` when it is priced, and the plan stored, prepared or blocked.
 */
export async function quoteAndStoreSwapPlan<Quote extends SwapQuote>(parameters: {
  readonly store: PlanStore;
  readonly basis: SwapPlanBasis;
  readonly adapter: ChainAdapter;
  readonly source: SwapQuoteSource<Quote> | undefined;
  /** The settings a blocked plan names: the source's, the fee recipient's. */
  readonly settings: { readonly source: string; readonly feeRecipient: string };
  readonly buildLegs: (legs: QuotedSwapLegParameters<Quote>) => Promise<LegBuild>;
  readonly now: Date;
}): Promise<SwapPlanDocument> {
  const { store, basis, now } = parameters;
  const { blockers, priced } = await quoteSwapPlan(basis, parameters.source, parameters.settings);
  const build: LegBuild =
    priced && blockers.length === 0
      ? await parameters.buildLegs({ ...basis, adapter: parameters.adapter, priced })
      : { status: 'blocked', blockers };
  return storeSwapPlan(store, basis, {
    build,
    priced:
      build.status === 'prepared' && priced
        ? { ...priced, swapTarget: swapTargetOf(priced.quote) }
        : undefined,
    now,
    adapter: parameters.adapter,
  });
}
