import type {
  ChainAdapters,
  PlanUseCases,
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
  readonly now?: () => Date;
}

/**
 * Swap plans — EVM (0x) for now; Jupiter and Cetus answer 501 until their sources land — and the
 * gas-sponsor plan (priced by the same EVM source).
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
