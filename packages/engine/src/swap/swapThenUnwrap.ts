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
 * wrap leg of the plan's whole input first — EVM `WETH.deposit()` paying it (the swap then spends
 * WETH, with its approval as usual); Solana the owner's wrapped SOL account created if absent,
 * the lamports moved in and synced — then `buildSwapLegs`' legs. The wrap leg settles from its
 * own receipt: it books what the chain shows wrapped, never this figure.
 */
export function wrapThenSwap<Quote extends SwapQuote>(
  buildSwapLegs: BuildLegs<Quote>,
): BuildLegs<Quote> {
  return async (parameters) => {
    const { adapter, chain, input, amountInMicros } = parameters;
    const native = chain === 'solana' ? 'SOL' : 'ETH';
    const request = {
      planId: parameters.planId,
      owner: parameters.owner,
      wrappedNative: input.address,
      amount: amountInMicros,
      summary: `Wrap ${formatUnits(amountInMicros, input.decimals)} ${native} into ${input.symbol} on ${chain} for the swap`,
    };
    const wrap: LegBuild | undefined =
      chain === 'solana'
        ? await adapter.buildSolanaWrap?.(request)
        : adapter.buildWrap && { status: 'prepared', legs: [adapter.buildWrap(request)] };
    if (!wrap) {
      return {
        status: 'blocked',
        blockers: [blocker('rpc_unavailable', { details: { chain, detail: 'no wrap builder' } })],
      };
    }
    if (wrap.status !== 'prepared') return wrap;
    const swap = await buildSwapLegs(parameters);
    if (swap.status !== 'prepared') return swap;
    return { status: 'prepared', legs: [...wrap.legs, ...swap.legs] };
  };
}
