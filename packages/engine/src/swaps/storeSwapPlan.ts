import { insertPlan } from '@yieldrouter/ledger';
import type { PrismaClient } from '@yieldrouter/ledger';
import type { Chain, LegBuild, SwapPlanDocument } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { planDocument, planRecord } from '../plans/planDocument';
import type { SwapPlanFees } from './swapPlanParts';
import { swapPlanParts } from './swapPlanParts';
import type { SwapQuote, SwapToken } from './swapQuoteSource';

export interface StoreSwapPlanParameters {
  readonly planId: string;
  readonly chain: Chain;
  readonly owner: string;
  readonly input: SwapToken;
  readonly output: SwapToken;
  readonly amountInMicros: bigint;
  readonly slippageBps: number;
  /** The service fee the plan charges (what a blocked plan shows as its fee). */
  readonly serviceFeeMicros: bigint;
  readonly build: LegBuild;
  /** Prepared plans: the quote and the fees priced from it. */
  readonly priced: { readonly quote: SwapQuote; readonly fees: SwapPlanFees } | undefined;
  /** Where the fee is paid (null when none is charged). */
  readonly feeRecipient: string | null;
  /** What the swap leg's receipt must call (the quote's contract or package); prepared only. */
  readonly swapTarget: string | undefined;
  readonly now: Date;
}

/**
 * Stores a swap plan (prepared or blocked) with what its swap leg's settlement reads
 * (`plans.swap`: tokens, minimum, fee recipient, swap target) and answers its document.
 */
export async function storeSwapPlan(
  db: PrismaClient,
  parameters: StoreSwapPlanParameters,
): Promise<SwapPlanDocument> {
  const { planId, chain, owner, input, output, priced, build } = parameters;
  const amountIn = parameters.amountInMicros;
  const slippageBps = parameters.slippageBps;
  const swapParts = swapPlanParts({ input, output, amountInMicros: amountIn, slippageBps, priced });
  const parts = {
    planId,
    kind: 'swap' as const,
    chain,
    amountMicros: amountIn,
    feeMicros: priced ? priced.fees.feeMicros : parameters.serviceFeeMicros,
    build,
    disclosure: { owner, ...swapParts },
    createdAt: parameters.now,
  };
  await insertPlan(
    db,
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
        feeRecipient: parameters.feeRecipient,
        ...(priced && parameters.swapTarget ? { swapTarget: parameters.swapTarget } : {}),
      },
    }),
  );
  return planDocument(parts);
}
