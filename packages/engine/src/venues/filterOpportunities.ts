import type { Chain, Opportunity, VenueReadiness } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { tvlOf } from './rankOpportunities';

const MICROS_PER_USD = 1_000_000n;

/** Filters shared by GET /svc/opportunities and POST /svc/discover; each optional. */
export interface OpportunityFilters {
  readonly chain?: Chain | undefined;
  /** A protocol name (case-blind) or one of its bare venue ids. */
  readonly protocol?: string | undefined;
  /** A catalog asset (case-blind). */
  readonly asset?: string | undefined;
  readonly minApyBps?: number | undefined;
  readonly minTvlUsd?: number | undefined;
  /** v1 clients' name of `minTvlUsd`; with both, they must be equal. */
  readonly min_tvl_usd?: number | undefined;
  /** The venue's readiness. */
  readonly status?: VenueReadiness | undefined;
  readonly ready?: boolean | undefined;
  readonly wave?: number | undefined;
  readonly depositable?: boolean | undefined;
}

function checkKnown(
  value: string | undefined,
  known: readonly string[],
  field: string,
): string | undefined {
  if (value === undefined) return undefined;
  const match = known.find((entry) => entry.toLowerCase() === value.toLowerCase());
  if (!match) {
    throw new EngineError(
      'BAD_REQUEST',
      `${field}: unknown value "${value.slice(0, 64)}"; known: ${known.join(', ')}`,
      field,
    );
  }
  return match;
}

/** The TVL minimum under either of its names (400 naming the alias when they differ). */
function minTvlUsdOf(filters: OpportunityFilters, location: 'query' | 'body'): number | undefined {
  const { minTvlUsd, min_tvl_usd: alias } = filters;
  if (minTvlUsd !== undefined && alias !== undefined && minTvlUsd !== alias) {
    throw new EngineError(
      'BAD_REQUEST',
      `${location}.min_tvl_usd: differs from minTvlUsd; send one, or the same in both`,
      `${location}.min_tvl_usd`,
    );
  }
  return minTvlUsd ?? alias;
}

/**
 * The opportunities matching every filter given, in their input order, with the protocol and
 * asset resolved to their catalog spelling. An unknown protocol or asset is a 400 naming
 * `<location>.<field>`; a minimum never passes an opportunity whose value is unknown.
 */
export function filterOpportunities(
  all: readonly Opportunity[],
  filters: OpportunityFilters,
  location: 'query' | 'body',
): { readonly matching: Opportunity[]; readonly protocol?: string; readonly asset?: string } {
  // A protocol by its name (case-blind) or by one of its bare venue ids.
  const byVenueId = all.find((entry) => entry.venueId === filters.protocol?.toLowerCase());
  const protocol = byVenueId
    ? byVenueId.protocol
    : checkKnown(
        filters.protocol,
        [...new Set(all.map((entry) => entry.protocol))],
        `${location}.protocol`,
      );
  const asset = checkKnown(
    filters.asset,
    [...new Set(all.map((entry) => entry.asset))],
    `${location}.asset`,
  );
  const minTvlUsd = minTvlUsdOf(filters, location);
  const minTvl = minTvlUsd === undefined ? undefined : BigInt(minTvlUsd) * MICROS_PER_USD;
  const matching = all.filter(
    (entry) =>
      (filters.chain === undefined || entry.chain === filters.chain) &&
      (protocol === undefined || entry.protocol === protocol) &&
      (asset === undefined || entry.asset === asset) &&
      (filters.ready === undefined || entry.ready === filters.ready) &&
      (filters.wave === undefined || entry.wave === filters.wave) &&
      (filters.status === undefined || entry.readiness === filters.status) &&
      (filters.depositable === undefined || entry.depositable === filters.depositable) &&
      (filters.minApyBps === undefined ||
        (entry.grossApyBps !== null && entry.grossApyBps >= filters.minApyBps)) &&
      (minTvl === undefined || (tvlOf(entry) ?? -1n) >= minTvl),
  );
  return {
    matching,
    ...(protocol === undefined ? {} : { protocol }),
    ...(asset === undefined ? {} : { asset }),
  };
}
