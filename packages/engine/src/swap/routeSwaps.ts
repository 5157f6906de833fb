import type { Chain } from '@yieldrouter/schemas';
import type { CetusConfig } from './cetusSettings';
import type { JupiterConfig } from './jupiterSettings';
import type { SuiSwapQuote } from './suiSwapQuote';
import type {
  EvmSwapQuote,
  SolanaSwapQuote,
  SwapQuote,
  SwapQuoteSource,
  SwapToken,
} from './swapQuoteSource';
import type { SwapsConfig } from './swapSettings';

/**
 * Where a cross-asset route or deposit finds its swap into USDC, chain by chain: the quote source
 * (through the one SwapQuoteSource interface), the tokens the chain swaps and where the service's
 * swap fee is paid. Chains without a source answer undefined, and their plans are blocked.
 */
export interface RouteSwaps {
  /** The source that prices swaps on `chain`; undefined when none is configured there. */
  sourceOn(chain: Chain): SwapQuoteSource<SwapQuote> | undefined;
  /** The setting a plan blocked for want of a source on `chain` names. */
  sourceSetting(chain: Chain): string;
  /** The tokens a swap may name on `chain` (USDC among them); empty where none is known. */
  tokensOn(chain: Chain): readonly SwapToken[];
  /** Where the service's swap fee is paid on `chain`; unset blocks a fee-charging swap. */
  feeRecipientOn(chain: Chain): string | undefined;
}

const isEvm = (chain: Chain): chain is 'base' | 'arbitrum' =>
  chain === 'base' || chain === 'arbitrum';

/**
 * The EVM chains' swaps (0x on Base and Arbitrum, the token tables and fee recipients of the
 * swap settings), and `others` for the rest (Solana, Sui) when their sources are configured.
 */
export function routeSwapsOf(
  swaps: SwapsConfig,
  evmSource: SwapQuoteSource<EvmSwapQuote> | undefined,
  others?: RouteSwaps,
): RouteSwaps {
  return {
    sourceOn: (chain) => (isEvm(chain) ? evmSource : others?.sourceOn(chain)),
    sourceSetting: (chain) =>
      isEvm(chain)
        ? 'SVC_ZEROX_BASE_URL'
        : (others?.sourceSetting(chain) ?? `SVC_${chain.toUpperCase()}_SWAP_SOURCE`),
    tokensOn: (chain) => (isEvm(chain) ? swaps.tokens[chain] : (others?.tokensOn(chain) ?? [])),
    feeRecipientOn: (chain) =>
      isEvm(chain) ? swaps.feeRecipients[chain] : others?.feeRecipientOn(chain),
  };
}

/**
 * Solana's and Sui's swaps for cross-asset routes and deposits: Jupiter on Solana, Cetus on Sui,
 * with the tokens, fee recipients and source settings of their swap settings (the same the swap
 * plans use). The EVM chains answer nothing here (routeSwapsOf covers them).
 */
export function solanaSuiRouteSwaps(parameters: {
  readonly jupiter: JupiterConfig;
  /** The Jupiter source; undefined when SVC_JUPITER_BASE_URL is unset. */
  readonly solanaSource: SwapQuoteSource<SolanaSwapQuote> | undefined;
  readonly cetus: CetusConfig;
  /** The Cetus source; undefined when its settings are incomplete (`cetus.missing`). */
  readonly suiSource: SwapQuoteSource<SuiSwapQuote> | undefined;
}): RouteSwaps {
  const { jupiter, cetus } = parameters;
  const on = <T>(chain: Chain, solana: T, sui: T): T | undefined =>
    chain === 'solana' ? solana : chain === 'sui' ? sui : undefined;
  return {
    sourceOn: (chain) =>
      on<SwapQuoteSource<SwapQuote> | undefined>(
        chain,
        parameters.solanaSource,
        parameters.suiSource,
      ),
    sourceSetting: (chain) =>
      on(chain, 'SVC_JUPITER_BASE_URL', cetus.missing ?? 'SVC_CETUS_BASE_URL') ??
      `SVC_${chain.toUpperCase()}_SWAP_SOURCE`,
    tokensOn: (chain) => on(chain, jupiter.tokens, cetus.tokens) ?? [],
    feeRecipientOn: (chain) => on(chain, jupiter.feeRecipient, cetus.feeRecipient),
  };
}
