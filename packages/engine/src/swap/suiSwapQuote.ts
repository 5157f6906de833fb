import type { SwapQuoteFacts } from './swapQuoteSource';

/** One pool a Sui route swaps through (the aggregator's `path` entry). */
export interface SuiSwapHop {
  /** The DEX the aggregator names (`CETUS`). */
  readonly provider: string;
  /** The shared pool object. */
  readonly poolId: string;
  /** True when the pool's coin A is sold for its coin B (`Pool<A, B>`, `swap_a2b`). */
  readonly a2b: boolean;
  /** Move coin types, in full form. */
  readonly coinIn: string;
  readonly coinOut: string;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

/** One split of the input: its hops run in order, each hop's output feeding the next. */
export interface SuiSwapRoute {
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly hops: readonly SuiSwapHop[];
}

/**
 * A Sui quote (Cetus): what the programmable transaction needs instead of an EVM call — the
 * routes through the pools and the packages its Move calls target (from settings, never from
 * the quote answer), built locally into the owner's leg.
 */
export interface SuiSwapQuote extends SwapQuoteFacts {
  readonly family: 'sui';
  /** The input the routes swap: the amount in less the service fee the leg pays first. */
  readonly netAmountInMicros: bigint;
  readonly routes: readonly SuiSwapRoute[];
  /** The aggregator package whose `cetus::swap_*` and `router::check_coin_threshold` run. */
  readonly packageId: string;
  /** Cetus' shared `GlobalConfig` the pool swaps read. */
  readonly globalConfigId: string;
}
