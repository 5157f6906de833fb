import { insertPlan } from '@yieldrouter/ledger';
import type { PrismaClient } from '@yieldrouter/ledger';
import type { Chain, LegBuild, SwapPlanDocument } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { planDocument, planRecord } from '../plans/planDocument';
import type { SwapQuote, SwapToken } from './swapQuoteSource';
import { swapPlanParts } from './swapPlanSteps';
import type { SwapPlanFees } from './swapPlanSteps';

export interface StoreSwapPlanParameters {
  readonly db: PrismaClient;
  readonly planId: string;
  readonly chain: Chain;
  readonly owner: string;
  readonly input: SwapToken;
  readonly output: SwapToken;
  readonly amountInMicros: bigint;
  readonly slippageBps: number;
  /** The service fee the schedule charges on the input (the plan's fee while it is blocked). */
  readonly serviceFee: { readonly bps: number; readonly amountMicros: bigint };
  readonly feeRecipient: string | undefined;
  readonly build: LegBuild;
  /** The quote and its fees, when the plan is prepared. */
  readonly priced:
    | { readonly quote: SwapQuote; readonly fees: SwapPlanFees; readonly swapTarget: string }
    | undefined;
  readonly now: Date;
}

/**
 * Stores a swap plan (prepared or blocked) with what its swap leg's settlement reads (`plans.swap`:
 * the tokens' addresses, the minimum out, the fee recipient, the contract or program the swap
 * calls), and answers its document.
 */
export async function storeSwapPlan(
  parameters: StoreSwapPlanParameters,
): Promise<SwapPlanDocument> {
  const { chain, owner, input, output, slippageBps, serviceFee, priced } = parameters;
  const amountIn = parameters.amountInMicros;
  const swapParts = swapPlanParts({ input, output, amountInMicros: amountIn, slippageBps, priced });
  const parts = {
    planId: parameters.planId,
    kind: 'swap' as const,
    chain,
    amountMicros: amountIn,
    feeMicros: priced ? priced.fees.feeMicros : serviceFee.amountMicros,
    build: parameters.build,
    disclosure: { owner, ...swapParts },
    createdAt: parameters.now,
  };
  await insertPlan(
    parameters.db,
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
        feeRecipient: serviceFee.bps > 0 ? (parameters.feeRecipient ?? null) : null,
        ...(priced ? { swapTarget: priced.swapTarget } : {}),
      },
    }),
  );
  return planDocument(parts);
}
