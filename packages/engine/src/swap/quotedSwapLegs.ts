import type { ChainAdapter, LegBuild } from '@yieldrouter/schemas';
import { buildSwapLegs, priceSwap } from './priceSwap';
import type { PriceSwapParameters, QuotedSwapLegParameters, SwapPricing } from './priceSwap';
import { buildSolanaSwapLegs } from './prepareSolanaSwapPlan';
import { buildSuiSwapLegs } from './prepareSuiSwapPlan';

/**
 * The owner-signed legs of a priced swap, built by the quote's chain family: EVM an approval
 * when the allowance is short then the quote's call (0x); Solana one v0 transaction with the
 * fee transfer, Jupiter's instructions and the memo; Sui one programmable transaction through
 * the Cetus pools. Blocked (never guessed) when the chain cannot be read to build them.
 */
export function buildQuotedSwapLegs(parameters: QuotedSwapLegParameters): Promise<LegBuild> {
  const { quote, fees } = parameters.priced;
  switch (quote.family) {
    case 'evm':
      return buildSwapLegs({ ...parameters, priced: { quote, fees } });
    case 'solana':
      return buildSolanaSwapLegs({ ...parameters, priced: { quote, fees } });
    case 'sui':
      return buildSuiSwapLegs({ ...parameters, priced: { quote, fees } });
  }
}

/**
 * A swap priced (`priceSwap`) and, when priced, its legs built (`buildQuotedSwapLegs`): the one
 * quote a cross-asset plan makes on any chain, and its legs or the blockers why there are none.
 */
export async function prepareSwapLegs(
  parameters: PriceSwapParameters & { readonly adapter: ChainAdapter; readonly planId: string },
): Promise<{ readonly pricing: SwapPricing; readonly build: LegBuild }> {
  const pricing = await priceSwap(parameters);
  const build: LegBuild = pricing.priced
    ? await buildQuotedSwapLegs({
        ...parameters,
        priced: pricing.priced,
        serviceFee: pricing.serviceFee,
      })
    : { status: 'blocked', blockers: pricing.blockers };
  return { pricing, build };
}
