import type { FeeSchedule } from '@yieldrouter/fees';
import type { Books } from '@yieldrouter/ledger';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { SwapQuote, SwapQuoteSource } from './swapQuoteSource';

/** A swap request as parsed: its amount in (the body's decimal string) as bigint base units. */
export type ParsedSwapRequest<Request extends { readonly amountInMicros: unknown }> = Omit<
  Request,
  'amountInMicros'
> & { readonly amountInMicros: bigint };

/**
 * What every chain's swap plan is prepared from: the books, the chain adapters, the chain's
 * quote source (undefined when none is configured: the plan is blocked naming the setting), the
 * parsed request, the fee schedule (the default one unless given) and the time. `Settings` is the
 * chain family's swap settings under their own key (`{ swaps }` on EVM, `{ jupiter }` on Solana,
 * `{ cetus }` on Sui): tokens, fee recipient and source settings.
 */
export type SwapPlanParameters<
  Settings extends object,
  Quote extends SwapQuote,
  Request extends { readonly amountInMicros: unknown },
> = Settings & {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  /** The chain's quote source; undefined when none is configured. */
  readonly source: SwapQuoteSource<Quote> | undefined;
  /** The request as parsed (amount as bigint). */
  readonly request: ParsedSwapRequest<Request>;
  readonly schedule?: FeeSchedule;
  readonly now: Date;
};
