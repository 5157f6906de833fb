import { insertApySamples, listVenuesWithApy } from '@yieldrouter/ledger';
import type { PrismaClientOrTransaction } from '@yieldrouter/ledger';
import type { ApyReader } from '../apy';
import type { VenueConfig } from './venueConfig';

export interface RefreshApyResult {
  readonly refreshedAt: string;
  readonly source: string;
  readonly venues: number;
  readonly ok: number;
  readonly unavailable: number;
}

/**
 * Reads APY for every venue from the source and appends one history row per venue (ok with
 * its value, or unavailable with its reason). The keeper schedules it; `live=1` calls it too.
 */
export async function refreshApy({
  db,
  reader,
  venues,
  now,
}: {
  readonly db: PrismaClientOrTransaction;
  readonly reader: ApyReader;
  readonly venues: VenueConfig;
  readonly now: () => Date;
}): Promise<RefreshApyResult> {
  const known = await listVenuesWithApy(db, now());
  const readings = await reader.read(
    known.map((venue) => ({ venueId: venue.id, poolId: venues.apyPools[venue.id] })),
  );
  const observedAt = now();
  await insertApySamples(
    db,
    readings.map((reading) => ({
      venueId: reading.venueId,
      source: reading.source,
      observedAt: reading.status === 'ok' ? reading.asOf : observedAt,
      value:
        reading.status === 'ok'
          ? {
              status: 'ok',
              apyBps: reading.apyBps,
              apyBaseBps: reading.apyBaseBps,
              apyRewardBps: reading.apyRewardBps,
              tvlUsdMicros: reading.tvlUsdMicros,
            }
          : { status: 'unavailable', reason: reading.reason },
    })),
  );
  const ok = readings.filter((reading) => reading.status === 'ok').length;
  return {
    refreshedAt: observedAt.toISOString(),
    source: reader.source,
    venues: readings.length,
    ok,
    unavailable: readings.length - ok,
  };
}
