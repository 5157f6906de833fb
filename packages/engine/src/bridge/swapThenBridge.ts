import { prepareCrossAssetSwap } from '../swap/crossAssetSwap';
import type { RouteSwaps } from '../swap/routeSwaps';
import type { SwapToken } from '../swap/swapQuoteSource';
import { prepareDepositBridge } from './crossChainDeposit';
import type { DepositBridge, PrepareDepositBridgeParameters } from './crossChainDeposit';

export interface PrepareSwapBridgeParameters extends PrepareDepositBridgeParameters {
  /** Where the source chain swaps; unset: only USDC is known. */
  readonly swaps?: RouteSwaps | undefined;
  /** The token the funds are in on the source chain when not USDC (its base units bridged). */
  readonly swapFrom: SwapToken | undefined;
  readonly slippageBps: number | undefined;
}

/**
 * The legs a cross-chain deposit (`bridge: true`) starts with on the source chain. Funds in
 * USDC: the bridge's (`prepareDepositBridge`). Funds in another token the source chain swaps:
 * first one quote for the swap of the whole amount into USDC through that chain's swap source
 * (as a cross-asset plan's), then the bridge of the swap's minimum out — what the swap
 * guarantees, net of every fee; the fill above it stays liquid on the source chain. The swap
 * blocked (no source or fee recipient configured, the source down, slow, answering garbage, no
 * route): the plan is blocked with its reason and no bridge is priced (never a guessed amount).
 */
export async function prepareSwapBridge(
  parameters: PrepareSwapBridgeParameters,
): Promise<DepositBridge> {
  const { bridge, swapFrom } = parameters;
  if (!swapFrom) return prepareDepositBridge(parameters);
  const swap = await prepareCrossAssetSwap({
    ...parameters,
    chain: bridge.sourceChain,
    owner: bridge.sourceAddress,
    input: swapFrom,
    amountInMicros: bridge.amountMicros,
  });
  if (swap.build.status === 'blocked') {
    return { bridged: undefined, blockers: [...swap.build.blockers], swap };
  }
  const bridged = await prepareDepositBridge({
    ...parameters,
    bridge: { ...bridge, amountMicros: swap.depositMicros },
  });
  return { ...bridged, swap };
}
