import type { Opportunity, OpportunitySortBy, SortOrder } from '@yieldrouter/schemas';

type Key = number | bigint | null;

/** `a` before `b` in `order`, unknown (null) values last whatever the order; 0 when equal. */
function compareKey(a: Key, b: Key, order: SortOrder): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (a === b) return 0;
  return (a < b ? -1 : 1) * (order === 'asc' ? 1 : -1);
}

/** Catalog order: wave, then priority, then venue id. */
export const byPriority = (
  a: Pick<Opportunity, 'wave' | 'priority' | 'venueId'>,
  b: Pick<Opportunity, 'wave' | 'priority' | 'venueId'>,
): number => a.wave - b.wave || a.priority - b.priority || a.venueId.localeCompare(b.venueId);

/** USD TVL as bigint micros, or null when unknown. */
export const tvlOf = (entry: Opportunity): bigint | null =>
  entry.tvlUsdMicros === null ? null : BigInt(entry.tvlUsdMicros);

/** What each sort compares, in turn, before catalog order breaks the tie. */
const SORT_KEYS: Record<OpportunitySortBy, readonly ((entry: Opportunity) => Key)[]> = {
  apy: [(entry) => entry.grossApyBps, (entry) => entry.apyMean30dBps],
  apy30d: [(entry) => entry.apyMean30dBps, (entry) => entry.grossApyBps],
  tvl: [tvlOf],
};

/**
 * The comparator of a sort: its keys in `order` (unknown values last in either order), then
 * catalog order. `apy` is live APY then the 30-day mean; `apy30d` the reverse; `tvl` USD TVL.
 */
export function opportunityComparator(
  sortBy: OpportunitySortBy,
  order: SortOrder,
): (a: Opportunity, b: Opportunity) => number {
  const keys = SORT_KEYS[sortBy];
  return (a, b) => {
    for (const key of keys) {
      const compared = compareKey(key(a), key(b), order);
      if (compared !== 0) return compared;
    }
    return byPriority(a, b);
  };
}

/** Best first: live APY, then the 30-day mean (unknown last), then catalog priority. */
export const byApyDesc = opportunityComparator('apy', 'desc');
