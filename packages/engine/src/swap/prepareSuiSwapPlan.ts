import { defaultFeeSchedule } from '@yieldrouter/fees';
import { buildSuiSwapLeg } from '@yieldrouter/chain-sui';
import type { LegBuild, SuiSwapPlanRequest, SwapPlanDocument } from '@yieldrouter/schemas';
import { formatUnits } from '@yieldrouter/schemas';
import { quoteAndStoreSwapPlan } from './storeSwapPlan';
import type { CetusConfig } from './cetusSettings';
import type { SuiSwapQuote } from './suiSwapQuote';
import type { QuotedSwapLegParameters } from './priceSwap';
import { beginSwapPlan } from './swapPlanSteps';
import type { SwapPlanParameters } from './swapPlanParameters';

/** A Sui swap plan's inputs: the Cetus settings, its quote source and the request. */
export type PrepareSuiSwapPlanParameters = SwapPlanParameters<
  { readonly cetus: CetusConfig },
  SuiSwapQuote,
  SuiSwapPlanRequest
>;

/**
 * Prepares (or blocks) a swap on Sui priced by the Cetus aggregator, and stores it.
 *
 * Refused (EngineError BAD_REQUEST naming the field, nothing stored): an unknown token, the same
 * token both ways, an owner that is not a Sui address, a slippage outside 0..max. Blocked
 * (stored, HTTP 200): no source or fee recipient configured, the source unavailable, slow or
 * answering garbage, no route, a quote that breaks the slippage bound. Prepared: fee lines (the
 * service fee from the schedule on the input; the pool fee of the route), the quoted and minimum
 * amounts out, and one unsigned Sui leg (`sui-transaction-json`) built locally from the routes:
 * the plan id as a memo input, the fee split off the input to the recipient, the pool calls,
 * `check_coin_threshold(minAmountOut)`, the output to the owner.
 */
export async function prepareSuiSwapPlan(
  parameters: PrepareSuiSwapPlanParameters,
): Promise<SwapPlanDocument> {
  const { adapters, cetus, source, request, now } = parameters;
  const chain = 'sui' as const;
  const basis = beginSwapPlan({
    chain,
    tokens: cetus.tokens,
    request,
    normalizeOwner: (address) => adapters.sui.normalizeAddress(address),
    ownerFormat: '0x + 1..64 hex',
    feeRecipient: cetus.feeRecipient,
    schedule: parameters.schedule ?? defaultFeeSchedule,
  });
  return quoteAndStoreSwapPlan({
    store: parameters,
    basis,
    adapter: adapters.sui,
    source,
    settings: {
      source: cetus.missing ?? 'SVC_CETUS_BASE_URL',
      feeRecipient: 'SVC_SUI_SWAP_FEE_RECIPIENT',
    },
    buildLegs: buildSuiSwapLegs,
    now,
  });
}

/**
 * The owner's one leg of a priced Cetus swap, built locally from the quote's routes (a
 * programmable transaction, `sui-transaction-json`): the plan id as a memo input, the service
 * fee split off the input to the recipient (when one is charged and has a recipient), the pool
 * calls, `check_coin_threshold(minAmountOut)`, the output to the owner.
 */
export async function buildSuiSwapLegs(
  parameters: QuotedSwapLegParameters<SuiSwapQuote>,
): Promise<LegBuild> {
  const { planId, chain, owner, input, output, amountInMicros, serviceFee, feeRecipient } =
    parameters;
  const { quote, fees } = parameters.priced;
  const shownIn = `${formatUnits(amountInMicros, input.decimals)} ${input.symbol}`;
  const shownOut = `${formatUnits(fees.minAmountOutMicros, output.decimals)} ${output.symbol}`;
  const leg = await buildSuiSwapLeg({
    planId,
    owner,
    inputCoinType: input.address,
    outputCoinType: output.address,
    amountInMicros,
    serviceFee:
      serviceFee.amountMicros > 0n && feeRecipient
        ? { amountMicros: serviceFee.amountMicros, recipient: feeRecipient }
        : null,
    routes: quote.routes,
    minAmountOutMicros: fees.minAmountOutMicros,
    packageId: quote.packageId,
    globalConfigId: quote.globalConfigId,
    summary: `Swap ${shownIn} for at least ${shownOut} on ${chain} via ${quote.source} (plan ${planId})`,
  });
  return { status: 'prepared', legs: [leg] };
}
