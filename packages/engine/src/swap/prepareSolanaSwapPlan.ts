import { defaultFeeSchedule } from '@yieldrouter/fees';
import type { LegBuild, SolanaSwapPlanRequest, SwapPlanDocument } from '@yieldrouter/schemas';
import { formatUnits } from '@yieldrouter/schemas';
import { blocker } from '../plan/blocker';
import type { JupiterConfig } from './jupiterSettings';
import { quoteAndStoreSwapPlan } from './storeSwapPlan';
import type { SolanaSwapQuote } from './swapQuoteSource';
import type { QuotedSwapLegParameters } from './priceSwap';
import type { SwapPlanParameters } from './swapPlanParameters';
import { beginSwapPlan, nativeTokenOf } from './swapPlanSteps';
import { swapThenUnwrap, wrapThenSwap } from './swapThenUnwrap';

/** A Solana swap plan's inputs: the Jupiter settings, its quote source and the request. */
export type PrepareSolanaSwapPlanParameters = SwapPlanParameters<
  { readonly jupiter: JupiterConfig },
  SolanaSwapQuote,
  SolanaSwapPlanRequest
>;

/**
 * Prepares (or blocks) a swap on Solana priced by Jupiter, and stores it.
 *
 * Refused (EngineError BAD_REQUEST naming the field, nothing stored): an unknown token, the same
 * token both ways, an owner that is not a Solana key, a slippage outside 0..max. Blocked (stored,
 * HTTP 200): no source or fee recipient configured, the source down, slow, answering garbage or
 * unsafe instructions, no route, a quote that breaks the slippage bound, the chain unreadable
 * (blockhash, lookup tables). Prepared: fee lines (the service fee from the schedule on the
 * input; the pool fee the route reported), the quoted and minimum amounts out, and one leg: the
 * service fee transfer, Jupiter's swap instructions and the plan memo in one v0 transaction;
 * with output SOL, then the unwrap leg (`swapThenUnwrap`); with input SOL, the wrap leg first
 * (`wrapThenSwap`).
 */
export async function prepareSolanaSwapPlan(
  parameters: PrepareSolanaSwapPlanParameters,
): Promise<SwapPlanDocument> {
  const { adapters, jupiter, source, request, now } = parameters;
  const chain = request.chain;
  const adapter = adapters[chain];
  // SOL out (issue 41): the swap buys wrapped SOL, then an unwrap leg turns it into SOL.
  const nativeOut = nativeTokenOf(chain, request.outputToken);
  // SOL in: a wrap leg (the lamports into the owner's wrapped SOL account) first.
  const nativeIn = nativeTokenOf(chain, request.inputToken);
  const basis = beginSwapPlan({
    chain,
    tokens: jupiter.tokens,
    request: {
      ...request,
      ...(nativeIn ? { inputToken: nativeIn.wrapped } : {}),
      ...(nativeOut ? { outputToken: nativeOut.wrapped } : {}),
    },
    normalizeOwner: (address) => adapter.normalizeAddress(address),
    ownerFormat: 'a base58 public key of 32 bytes',
    feeRecipient: jupiter.feeRecipient,
    schedule: parameters.schedule ?? defaultFeeSchedule,
  });
  return quoteAndStoreSwapPlan({
    store: parameters,
    basis,
    adapter,
    source,
    settings: { source: 'SVC_JUPITER_BASE_URL', feeRecipient: 'SVC_SOLANA_SWAP_FEE_RECIPIENT' },
    buildLegs: nativeIn
      ? wrapThenSwap(buildSolanaSwapLegs)
      : nativeOut
        ? swapThenUnwrap(buildSolanaSwapLegs)
        : buildSolanaSwapLegs,
    now,
  });
}

/**
 * The owner's one leg of a priced Jupiter swap: the service fee transfer (when one is charged and
 * has a recipient), the quote's swap instructions and the plan memo in one v0 transaction, built
 * by the Solana adapter. Blocked `rpc_unavailable` when the chain is unreadable (blockhash,
 * lookup tables) or the adapter builds no swaps.
 */
export async function buildSolanaSwapLegs(
  parameters: QuotedSwapLegParameters<SolanaSwapQuote>,
): Promise<LegBuild> {
  const { adapter, chain, owner, input, output, amountInMicros, serviceFee, feeRecipient } =
    parameters;
  const { quote, fees } = parameters.priced;
  if (!adapter.buildSolanaSwap) {
    return {
      status: 'blocked',
      blockers: [blocker('rpc_unavailable', { details: { chain, detail: 'no swap builder' } })],
    };
  }
  const shownIn = `${formatUnits(amountInMicros, input.decimals)} ${input.symbol}`;
  const shownOut = `${formatUnits(fees.minAmountOutMicros, output.decimals)} ${output.symbol}`;
  return adapter.buildSolanaSwap({
    planId: parameters.planId,
    owner,
    amountInMicros,
    instructions: quote.instructions,
    serviceFee:
      serviceFee.amountMicros > 0n && feeRecipient
        ? {
            recipient: feeRecipient,
            mint: input.address,
            decimals: input.decimals,
            amountMicros: serviceFee.amountMicros,
          }
        : null,
    summary: `Swap ${shownIn} for at least ${shownOut} on ${chain} via ${quote.source} (service fee ${formatUnits(serviceFee.amountMicros, input.decimals)} ${input.symbol} in the same transaction)`,
  });
}
