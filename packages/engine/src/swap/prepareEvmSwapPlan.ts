import { defaultFeeSchedule } from '@yieldrouter/fees';
import type { EvmSwapPlanRequest, SwapPlanDocument } from '@yieldrouter/schemas';
import type { SwapsConfig } from './swapSettings';
import type { EvmSwapQuote } from './swapQuoteSource';
import type { SwapPlanParameters } from './swapPlanParameters';
import { buildSwapLegs } from './priceSwap';
import { beginSwapPlan, nativeTokenOf } from './swapPlanSteps';
import { quoteAndStoreSwapPlan } from './storeSwapPlan';
import { swapThenUnwrap, wrapThenSwap } from './swapThenUnwrap';

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
 * (as the quote reports it, else read on chain) is short, then the quote's call, then (output
 * ETH or 0xEeee…) the unwrap of the WETH it bought; with input ETH (or 0xEeee…) a wrap leg
 * (`WETH.deposit()` of the whole input) comes first and the swap spends WETH.
 */
export async function prepareEvmSwapPlan(
  parameters: PrepareEvmSwapPlanParameters,
): Promise<SwapPlanDocument> {
  const { adapters, swaps, source, request, now } = parameters;
  const chain = request.chain;
  const adapter = adapters[chain];
  // ETH out (issue 41): the swap buys WETH, then an unwrap leg turns it into ETH.
  const nativeOut = nativeTokenOf(chain, request.outputToken);
  // ETH in: a wrap leg (WETH.deposit of the whole input) first, then the swap spends WETH.
  const nativeIn = nativeTokenOf(chain, request.inputToken);
  const basis = beginSwapPlan({
    chain,
    tokens: swaps.tokens[chain],
    request: {
      ...request,
      ...(nativeIn ? { inputToken: nativeIn.wrapped } : {}),
      ...(nativeOut ? { outputToken: nativeOut.wrapped } : {}),
    },
    normalizeOwner: (address) => adapter.normalizeAddress(address),
    ownerFormat: '0x + 40 hex, EIP-55 if mixed case',
    feeRecipient: swaps.feeRecipients[chain],
    schedule: parameters.schedule ?? defaultFeeSchedule,
  });
  return quoteAndStoreSwapPlan({
    store: parameters,
    basis,
    adapter,
    source,
    settings: {
      source: 'SVC_ZEROX_BASE_URL',
      feeRecipient: `SVC_${chain.toUpperCase()}_SWAP_FEE_RECIPIENT`,
    },
    buildLegs: nativeIn
      ? wrapThenSwap(buildSwapLegs)
      : nativeOut
        ? swapThenUnwrap(buildSwapLegs)
        : buildSwapLegs,
    now,
  });
}
