import type { Opportunity, VenueApyTable } from '@yieldrouter/schemas';

/**
 * The APY table (svc-venue-apy.v1) of `opportunities`: `ok` when every APY is known,
 * `unavailable` when none is, else `partial`. Unknown APYs stay null.
 */
export function venueApyTable(opportunities: readonly Opportunity[], asOf: string): VenueApyTable {
  const known = opportunities.filter((entry) => entry.grossApyBps !== null).length;
  return {
    schemaVersion: 'svc-venue-apy.v1',
    status: known === opportunities.length ? 'ok' : known === 0 ? 'unavailable' : 'partial',
    asOf,
    venues: opportunities.map((entry) => ({
      venueId: entry.venueId,
      opportunityId: entry.opportunityId,
      chain: entry.chain,
      grossApyBps: entry.grossApyBps,
      gross_apy_bps: entry.gross_apy_bps,
      apyMean30dBps: entry.apyMean30dBps,
      apyMean30dSamples: entry.apyMean30dSamples,
      apy: entry.apy,
    })),
  };
}
