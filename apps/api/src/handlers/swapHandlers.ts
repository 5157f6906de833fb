import type {
  CetusConfig,
  ChainAdapters,
  JupiterConfig,
  SolanaSwapQuote,
  SuiSwapQuote,
  SwapQuoteSource,
  SwapsConfig,
  SwapUseCases,
} from '@yieldrouter/engine';
import type { Handlers } from '../http/mountRoutes';

export interface SwapHandlerDeps {
  readonly swap: SwapUseCases;
  readonly adapters: ChainAdapters;
  readonly swaps: SwapsConfig;
  /** The EVM quote source (0x); undefined when none is configured (plans are blocked). */
  readonly evmSource: SwapQuoteSource | undefined;
  readonly jupiter: JupiterConfig;
  /** The Solana quote source (Jupiter); undefined when none is configured (plans are blocked). */
  readonly solanaSource: SwapQuoteSource<SolanaSwapQuote> | undefined;
  readonly cetus: CetusConfig;
  /** The Sui quote source (Cetus); undefined when none is configured (plans are blocked). */
  readonly suiSource: SwapQuoteSource<SuiSwapQuote> | undefined;
  readonly now?: () => Date;
}

/**
 * Swap plans — EVM (0x), Solana (Jupiter) and Sui (Cetus) — and the gas-sponsor plan (priced by
 * the EVM source, or Jupiter on Solana).
 */
export function swapHandlers(deps: SwapHandlerDeps): Handlers {
  const now = deps.now ?? (() => new Date());
  return {
    prepareEvmSwapPlan: async ({ body }) => ({
      status: 200,
      body: await deps.swap.prepareEvmSwapPlan({
        adapters: deps.adapters,
        swaps: deps.swaps,
        source: deps.evmSource,
        request: body,
        now: now(),
      }),
    }),
    prepareSolanaSwapPlan: async ({ body }) => ({
      status: 200,
      body: await deps.swap.prepareSolanaSwapPlan({
        adapters: deps.adapters,
        jupiter: deps.jupiter,
        source: deps.solanaSource,
        request: body,
        now: now(),
      }),
    }),
    prepareSuiSwapPlan: async ({ body }) => ({
      status: 200,
      body: await deps.swap.prepareSuiSwapPlan({
        adapters: deps.adapters,
        cetus: deps.cetus,
        source: deps.suiSource,
        request: body,
        now: now(),
      }),
    }),
    prepareGasSponsorPlan: async ({ body }) => ({
      status: 200,
      body: await deps.swap.prepareGasSponsorPlan({
        adapters: deps.adapters,
        swaps: deps.swaps,
        source: deps.evmSource,
        cetus: deps.cetus,
        suiSource: deps.suiSource,
        solana: { jupiter: deps.jupiter, source: deps.solanaSource },
        request: body,
        now: now(),
      }),
    }),
  };
}
