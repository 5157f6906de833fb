import type {
  ChainAdapters,
  JupiterConfig,
  PlanUseCases,
  SolanaSwapQuote,
  SwapQuoteSource,
  SwapsConfig,
} from '@yieldrouter/engine';
import type { Handlers } from '../http/mountRoutes';

export interface SwapHandlerDeps {
  readonly plans: PlanUseCases;
  readonly adapters: ChainAdapters;
  readonly swaps: SwapsConfig;
  /** The EVM quote source (0x); undefined when none is configured (plans are blocked). */
  readonly evmSource: SwapQuoteSource | undefined;
  readonly jupiter: JupiterConfig;
  /** The Solana quote source (Jupiter); undefined when none is configured (plans are blocked). */
  readonly solanaSource: SwapQuoteSource<SolanaSwapQuote> | undefined;
  readonly now?: () => Date;
}

/**
 * Swap plans — EVM (0x) and Solana (Jupiter); Cetus answers 501 until its source lands — and the
 * gas-sponsor plan (priced by the EVM source).
 */
export function swapHandlers(deps: SwapHandlerDeps): Handlers {
  const now = deps.now ?? (() => new Date());
  return {
    prepareEvmSwapPlan: async ({ body }) => ({
      status: 200,
      body: await deps.plans.prepareEvmSwapPlan({
        adapters: deps.adapters,
        swaps: deps.swaps,
        source: deps.evmSource,
        request: body,
        now: now(),
      }),
    }),
    prepareSolanaSwapPlan: async ({ body }) => ({
      status: 200,
      body: await deps.plans.prepareSolanaSwapPlan({
        adapters: deps.adapters,
        jupiter: deps.jupiter,
        source: deps.solanaSource,
        request: body,
        now: now(),
      }),
    }),
    prepareGasSponsorPlan: async ({ body }) => ({
      status: 200,
      body: await deps.plans.prepareGasSponsorPlan({
        adapters: deps.adapters,
        swaps: deps.swaps,
        source: deps.evmSource,
        request: body,
        now: now(),
      }),
    }),
  };
}
