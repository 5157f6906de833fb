import type { Books } from './books';
import type { Prisma } from './generated/prisma/client';

/** One UTC day of a venue's ok APY samples; a day without one has null figures and 0 samples. */
export interface ApyHistoryDayRow {
  /** YYYY-MM-DD (UTC). */
  readonly day: string;
  readonly meanBps: number | null;
  readonly minBps: number | null;
  readonly maxBps: number | null;
  readonly samples: number;
}

export interface ApyHistoryRows {
  readonly days: readonly ApyHistoryDayRow[];
  /** `round(avg)` over every ok sample of the window, as `listVenuesWithApy` computes its means. */
  readonly meanBps: number | null;
  readonly samples: number;
}

interface RawDay {
  day: string;
  mean_bps: number | null;
  min_bps: number | null;
  max_bps: number | null;
  samples: number;
}

/**
 * A venue's ok APY samples observed in [from, to], per UTC day (every day of the range, oldest
 * first) and over the whole range.
 */
export async function readApyHistory(
  db: Books,
  venueId: string,
  from: Date,
  to: Date,
): Promise<ApyHistoryRows> {
  const [days, totals] = await Promise.all([
    db.$queryRaw<RawDay[]>`
      SELECT to_char(d.day, 'YYYY-MM-DD') AS day, round(avg(s.apy_bps))::int AS mean_bps,
             min(s.apy_bps)::int AS min_bps, max(s.apy_bps)::int AS max_bps,
             count(s.apy_bps)::int AS samples
        FROM generate_series(
               date_trunc('day', ${from}::timestamptz AT TIME ZONE 'UTC'),
               date_trunc('day', ${to}::timestamptz AT TIME ZONE 'UTC'),
               interval '1 day') AS d(day)
        LEFT JOIN apy_samples s
          ON s.venue_id = ${venueId} AND s.status = 'ok'
         AND s.observed_at >= ${from} AND s.observed_at <= ${to}
         AND date_trunc('day', s.observed_at AT TIME ZONE 'UTC') = d.day
       GROUP BY d.day
       ORDER BY d.day`,
    db.$queryRaw<Array<{ mean_bps: number | null; samples: number }>>`
      SELECT round(avg(apy_bps))::int AS mean_bps, count(*)::int AS samples
        FROM apy_samples
       WHERE venue_id = ${venueId} AND status = 'ok'
         AND observed_at >= ${from} AND observed_at <= ${to}`,
  ]);
  return {
    days: days.map((row) => ({
      day: row.day,
      meanBps: row.mean_bps,
      minBps: row.min_bps,
      maxBps: row.max_bps,
      samples: row.samples,
    })),
    meanBps: totals[0]?.mean_bps ?? null,
    samples: totals[0]?.samples ?? 0,
  };
}

export interface VenueChainReadInput {
  readonly venueId: string;
  readonly facts: Prisma.InputJsonValue;
  readonly observedAt: Date;
}

/** Replaces each venue's latest chain read. */
export async function upsertVenueChainReads(
  db: Books,
  reads: readonly VenueChainReadInput[],
): Promise<void> {
  for (const { venueId, facts, observedAt } of reads) {
    await db.venueChainRead.upsert({
      where: { venueId },
      create: { venueId, facts, observedAt },
      update: { facts, observedAt },
    });
  }
}
