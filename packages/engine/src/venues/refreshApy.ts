import { errorMessage } from '@yieldrouter/schemas';
import {
  insertApySamples,
  insertOutboxEvents,
  listVenuesWithApy,
  upsertVenueChainReads,
} from '@yieldrouter/ledger';
import type { ApySampleInput, OutboxEventInput, Books, VenueWithApyRow } from '@yieldrouter/ledger';
import type { ApyUpdatedPayload, Chain } from '@yieldrouter/schemas';
import type { ApyReader, ApyReading } from '../apy';
import type { ChainAdapters } from '../chains/chainsConfig';
import { readChainFacts } from './readChainFacts';
import type { VenueConfig } from './venueConfig';

export interface RefreshApyResult {
  readonly refreshedAt: string;
  readonly source: string;
  readonly venues: number;
  readonly ok: number;
  readonly unavailable: number;
  /** Venues whose APY changed since their previous reading: one `apy.updated` event each. */
  readonly apyUpdatedEvents: number;
  /** Why the source read failed as a whole (every venue stored unavailable); else null. */
  readonly sourceError: string | null;
}

/** Arbitrary constant: concurrent refreshes compare against each other's readings in turn. */
const REFRESH_LOCK = 7_453_120_002n;

/** A reader that throws still yields a reading per venue: unavailable, never a value. */
async function readAll(
  reader: ApyReader,
  venues: readonly VenueWithApyRow[],
  config: VenueConfig,
): Promise<{ readings: readonly ApyReading[]; error: string | null }> {
  try {
    const readings = await reader.read(
      venues.map((venue) => ({ venueId: venue.id, poolId: config.apyPools[venue.id] })),
    );
    return { readings, error: null };
  } catch (error) {
    const readings = venues.map((venue) => ({
      venueId: venue.id,
      status: 'unavailable' as const,
      source: reader.source,
      reason: 'source_error' as const,
      detail: 'the APY reader failed',
    }));
    return { readings, error: errorMessage(error) };
  }
}

/** When a reading was taken: the source's own time when it answered, else the refresh's. */
const observedAtOf = (reading: ApyReading, observedAt: Date): Date =>
  reading.status === 'ok' ? reading.asOf : observedAt;

function sampleOf(reading: ApyReading, observedAt: Date): ApySampleInput {
  return {
    venueId: reading.venueId,
    source: reading.source,
    observedAt: observedAtOf(reading, observedAt),
    value:
      reading.status === 'ok'
        ? {
            status: 'ok',
            apyBps: reading.apyBps,
            apyBaseBps: reading.apyBaseBps,
            apyRewardBps: reading.apyRewardBps,
            tvlUsdMicros: reading.tvlUsdMicros,
            poolFacts: reading.facts,
          }
        : { status: 'unavailable', reason: reading.reason },
  };
}

/** The stored value of a venue's latest reading: its APY, or null when unknown or never read. */
const storedApy = (venue: VenueWithApyRow | undefined) =>
  venue?.latest?.status === 'ok' ? venue.latest.apyBps : null;

/** One `apy.updated` event per venue whose value differs from its previous stored reading. */
function apyEvents(
  previous: readonly VenueWithApyRow[],
  readings: readonly ApyReading[],
  observedAt: Date,
): OutboxEventInput[] {
  const byId = new Map(previous.map((venue) => [venue.id, venue]));
  return readings.flatMap((reading) => {
    const venue = byId.get(reading.venueId);
    const before = storedApy(venue);
    const after = reading.status === 'ok' ? reading.apyBps : null;
    if (!venue || before === after) return [];
    const payload: ApyUpdatedPayload = {
      venueId: venue.id,
      opportunityId: venue.opportunityId,
      chain: venue.chain as Chain,
      previousApyBps: before,
      apyBps: after,
      apyBaseBps: reading.status === 'ok' ? reading.apyBaseBps : null,
      apyRewardBps: reading.status === 'ok' ? reading.apyRewardBps : null,
      reason: reading.status === 'ok' ? null : reading.reason,
      source: reading.source,
      asOf: observedAtOf(reading, observedAt).toISOString(),
    };
    return [{ type: 'apy.updated', wallet: null, payload }];
  });
}

/**
 * Reads APY for every venue from the source and appends one history row per venue (ok with
 * its value, or unavailable with its reason). In the same transaction, one `apy.updated` event
 * per venue whose APY changed from its previous stored reading goes to the outbox. The keeper
 * schedules it; `live=1` and the map refresh call it too. With `adapters`, each venue is also
 * read on its chain (native TVL, deposit caps, tokens; see `readChainFacts`) and its latest
 * chain read replaced, so the listing serves those figures without a chain call.
 */
export async function refreshApy({
  db,
  reader,
  venues,
  now,
  adapters,
}: {
  readonly db: Books;
  readonly reader: ApyReader;
  readonly venues: VenueConfig;
  readonly now: () => Date;
  readonly adapters?: ChainAdapters | undefined;
}): Promise<RefreshApyResult> {
  const listed = await listVenuesWithApy(db, now());
  const [{ readings, error }, chainReads] = await Promise.all([
    readAll(reader, listed, venues),
    adapters ? readChainFacts(adapters, venues, listed, now) : Promise.resolve([]),
  ]);
  const observedAt = now();
  const samples = readings.map((reading) => sampleOf(reading, observedAt));
  const events = await db.transaction(async (tx: Books) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REFRESH_LOCK})`;
    const previous = await listVenuesWithApy(tx, observedAt);
    await insertApySamples(tx, samples);
    await upsertVenueChainReads(tx, chainReads);
    const changed = apyEvents(previous, readings, observedAt);
    await insertOutboxEvents(tx, changed, observedAt);
    return changed.length;
  });
  const ok = readings.filter((reading) => reading.status === 'ok').length;
  return {
    refreshedAt: observedAt.toISOString(),
    source: reader.source,
    venues: readings.length,
    ok,
    unavailable: readings.length - ok,
    apyUpdatedEvents: events,
    sourceError: error,
  };
}
