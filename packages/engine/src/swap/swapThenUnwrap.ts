import type { LegBuild } from '@yieldrouter/schemas';
import { formatUnits } from '@yieldrouter/schemas';
import { blocker } from '../plan/blocker';
import type { QuotedSwapLegParameters } from './priceSwap';
import type { SwapQuote } from './swapQuoteSource';

type BuildLegs<Quote extends SwapQuote> = (
  parameters: QuotedSwapLegParameters<Quote>,
) => Promise<LegBuild>;

/**
 * The legs of a swap into a chain's native token (issue 41): `buildSwapLegs`' legs into the
 * wrapped token, then the unwrap leg gas top-ups use. EVM: `WETH.withdraw` of the swap's minimum
 * out (the wei it guarantees; any more stays WETH). Solana: the close of the owner's wrapped SOL
 * account (every lamport in it becomes SOL, with its rent). Each leg settles from its own
 * receipt: the unwrap books what its log or the close proves, never this figure.
 */
export function swapThenUnwrap<Quote extends SwapQuote>(
  buildSwapLegs: BuildLegs<Quote>,
): BuildLegs<Quote> {
  return async (parameters) => {
    const { adapter, chain, output } = parameters;
    const swap = await buildSwapLegs(parameters);
    if (swap.status !== 'prepared') return swap;
    const amount = parameters.priced.fees.minAmountOutMicros;
    const shown = formatUnits(amount, output.decimals);
    const request = {
      planId: parameters.planId,
      owner: parameters.owner,
      wrappedNative: output.address,
      amount,
    };
    const unwrap: LegBuild | undefined =
      chain === 'solana'
        ? await adapter.buildSolanaUnwrap?.({
            ...request,
            summary: `Close the wrapped SOL account into SOL on solana: at least ${shown} SOL from the swap, and any wrapped SOL it held before`,
          })
        : adapter.buildUnwrap && {
            status: 'prepared',
            legs: [
              adapter.buildUnwrap({
                ...request,
                summary: `Unwrap ${shown} ${output.symbol} (the swap's minimum out) into ETH on ${chain}; any more stays ${output.symbol}`,
              }),
            ],
          };
    if (!unwrap) {
      return {
        status: 'blocked',
        blockers: [blocker('rpc_unavailable', { details: { chain, detail: 'no unwrap builder' } })],
      };
    }
    if (unwrap.status !== 'prepared') return unwrap;
    return { status: 'prepared', legs: [...swap.legs, ...unwrap.legs] };
  };
}

/**
 * The legs of a swap from a chain's native token (issue 41), the mirror of `swapThenUnwrap`: a
 * wrap leg first — EVM `WETH.deposit()` paying the plan's whole input, so the swap that follows
 * spends wrapped native (with its approval as usual) — then `buildSwapLegs`' legs. The wrap leg
 * settles from its own receipt: it books what the token's `Deposit` log proves wrapped, never
 * this figure. A chain without a wrap builder (Solana, for now) is blocked.
 */
export function wrapThenSwap<Quote extends SwapQuote>(
  buildSwapLegs: BuildLegs<Quote>,
): BuildLegs<Quote> {
  return async (parameters) => {
    const { adapter, chain, input, amountInMicros } = parameters;
    if (!adapter.buildWrap) {
      return {
        status: 'blocked',
        blockers: [blocker('rpc_unavailable', { details: { chain, detail: 'no wrap builder' } })],
      };
    }
    const swap = await buildSwapLegs(parameters);
    if (swap.status !== 'prepared') return swap;
    const shown = formatUnits(amountInMicros, input.decimals);
    const wrap = adapter.buildWrap({
      planId: parameters.planId,
      owner: parameters.owner,
      wrappedNative: input.address,
      amount: amountInMicros,
      summary: `Wrap ${shown} ETH into ${input.symbol} on ${chain} for the swap`,
    });
    return { status: 'prepared', legs: [wrap, ...swap.legs] };
  };
}
