import { defaultFeeSchedule } from '@yieldrouter/fees';
import type { EvmSwapPlanRequest, LegBuild, SwapPlanDocument } from '@yieldrouter/schemas';
import type { SwapsConfig } from './swapSettings';
import { swapTargetOf } from './swapQuoteSource';
import type { EvmSwapQuote } from './swapQuoteSource';
import type { SwapPlanParameters } from './swapPlanParameters';
import { buildSwapLegs } from './priceSwap';
import { beginSwapPlan, quoteSwapPlan } from './swapPlanSteps';
import { storeSwapPlan } from './storeSwapPlan';

/** An EVM swap plan's inputs: the swap settings, the 0x quote source and the request. */
export type PrepareEvmSwapPlanParameters = SwapPlanParameters<
  { readonly swaps: SwapsConfig },
  EvmSwapQuote,
  EvmSwapPlanRequest
>;

/**
 * Prepares (or blocks) a swap on Base or Arbitrum priced by the quote source, and stores it.
 *
 * Refused (EngineError BAD_REQUEST naming the field, nothing stored): an unknown token, the same
 * token both ways, an owner that is not an EVM address, a slippage outside 0..max. Blocked
 * (stored, HTTP 200): no source or fee recipient configured, the source unavailable, slow, or
 * answering garbage, no route, a quote that breaks the slippage bound, an unreadable allowance.
 * Prepared: fee lines (the service fee from the schedule on the input; the pool fee the source
 * reported), the quoted and minimum amounts out, and the legs — an approval when the allowance
 * (as the quote reports it, else read on chain) is short, then the quote's call.
 */
export async function prepareEvmSwapPlan(
  parameters: PrepareEvmSwapPlanParameters,
): Promise<SwapPlanDocument> {
  const { db, adapters, swaps, source, request, now } = parameters;
  const chain = request.chain;
  const adapter = adapters[chain];
  const basis = beginSwapPlan({
    chain,
    tokens: swaps.tokens[chain],
    request,
    normalizeOwner: (address) => adapter.normalizeAddress(address),
    ownerFormat: '0x + 40 hex, EIP-55 if mixed case',
    feeRecipient: swaps.feeRecipients[chain],
    schedule: parameters.schedule ?? defaultFeeSchedule,
  });
  const { planId, owner, input, output, serviceFee, feeRecipient } = basis;
  const amountIn = basis.amountInMicros;
  const { blockers, priced: quoted } = await quoteSwapPlan(basis, source, {
    source: 'SVC_ZEROX_BASE_URL',
    feeRecipient: `SVC_${chain.toUpperCase()}_SWAP_FEE_RECIPIENT`,
  });
  const quote = quoted?.quote;
  const fees = quoted?.fees;

  let build: LegBuild = { status: 'blocked', blockers };
  if (blockers.length === 0 && quote && fees) {
    build = await buildSwapLegs({
      adapter,
      chain,
      planId,
      owner,
      input,
      output,
      amountInMicros: amountIn,
      priced: { quote, fees },
      serviceFee,
      feeRecipient,
    });
  }

  return storeSwapPlan(db, basis, {
    build,
    priced:
      build.status === 'prepared' && quote && fees
        ? { quote, fees, swapTarget: swapTargetOf(quote) }
        : undefined,
    now,
  });
}
