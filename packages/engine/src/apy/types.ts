import type { PoolFacts } from '@yieldrouter/schemas';

/** Why a venue has no APY reading. Unknown APY is reported with one of these, never as 0. */
export type ApyUnavailableReason =
  /** No base URL configured, or no pool id for this venue. */
  | 'source_not_configured'
  /** The source did not answer (headers and body) within the timeout. */
  | 'source_timeout'
  /** Connection refused, reset, DNS failure, non-2xx status, … */
  | 'source_error'
  /** Not JSON, wrong shape, or non-finite / absurd numbers for this pool. */
  | 'source_bad_response'
  /** The source does not list this pool id. */
  | 'pool_not_found'
  /** The pool is listed but its `apy` is null. */
  | 'pool_has_no_apy';

/** One venue to read: its id and the source's pool id configured for it (if any). */
export interface ApyQuery {
  readonly venueId: string;
  readonly poolId: string | undefined;
}

/**
 * A venue's APY as read from one source. `ok` values are basis points (1 % = 100 bps), integer;
 * `tvlUsdMicros` is USD × 10^6. `unavailable` carries a reason and a human detail that never
 * contains the source URL.
 */
export type ApyReading =
  | {
      readonly venueId: string;
      readonly status: 'ok';
      readonly source: string;
      readonly asOf: Date;
      readonly apyBps: number;
      readonly apyBaseBps: number | null;
      readonly apyRewardBps: number | null;
      readonly tvlUsdMicros: bigint | null;
      /** Risk signals and tokens the source gave with the pool (absent from other sources). */
      readonly facts?: PoolFacts;
    }
  | {
      readonly venueId: string;
      readonly status: 'unavailable';
      readonly source: string;
      readonly reason: ApyUnavailableReason;
      readonly detail: string;
    };

/** Reads APY for many venues from one source; never throws for source failures. */
export interface ApyReader {
  readonly source: string;
  /** One reading per query, in query order. */
  read(queries: readonly ApyQuery[]): Promise<readonly ApyReading[]>;
}
