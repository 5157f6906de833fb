import fc from 'fast-check';
import { insertApySamples } from '@yieldrouter/ledger';
import type { ApySampleInput } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { Opportunity } from '@yieldrouter/schemas';
import { listOpportunities } from './listOpportunities';
import { readOpportunityApyHistory } from './opportunityApyHistory';
import { seedVenueCatalog } from './seedVenueCatalog';
import type { VenueConfig } from './venueConfig';

// Property: the 1-day, 7-day and 30-day APY figures of the listing are the means of exactly the
// ok samples stored in each window, served only with the sample counts that justify them, and
// null (never 0) otherwise; the history route's 30-day mean and daily counts agree with the
// listing. Real Postgres; samples are written straight to the history.

const VENUE = 'kamino';
const DAY_MS = 24 * 3600 * 1000;
const NOW = new Date('2026-03-15T12:00:00.000Z');
const venues: VenueConfig = {
  ids: {},
  apyPools: { [VENUE]: 'pool-kamino' },
  apyMaxAgeMs: 3_600_000,
  apyMeanMinSamples: 6,
};

/** PostgreSQL's `round(avg(x))` for integers: the exact mean, half away from zero. */
function sqlMean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sum = values.reduce((total, value) => total + BigInt(value), 0n);
  const n = BigInt(values.length);
  const magnitude = ((sum < 0n ? -sum : sum) * 2n + n) / (2n * n);
  return Number(sum < 0n ? -magnitude : magnitude);
}

const sample = fc.record({
  ageMs: fc.integer({ min: 0, max: 40 * DAY_MS }),
  bps: fc.oneof(fc.integer({ min: -10_000, max: 100_000 }), fc.constant(0)),
  ok: fc.boolean(),
});

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
  await seedVenueCatalog(test.db);
});
afterAll(() => test.drop());

it('d1 / d7 / 30d means and counts come from the stored samples of each window', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(sample, { maxLength: 40 }), async (samples) => {
      await test.db.apySample.deleteMany({ where: { venueId: VENUE } });
      const rows: ApySampleInput[] = samples.map(({ ageMs, bps, ok }) => ({
        venueId: VENUE,
        source: 'scripted',
        observedAt: new Date(NOW.getTime() - ageMs),
        value: ok
          ? { status: 'ok', apyBps: bps, apyBaseBps: null, apyRewardBps: null, tvlUsdMicros: null }
          : { status: 'unavailable', reason: 'source_timeout' },
      }));
      await insertApySamples(test.db, rows);
      const listing = await listOpportunities({
        db: test.db,
        venues,
        enablement: [],
        now: NOW,
      });
      const entry = Opportunity.parse(listing.find((row) => row.venueId === VENUE));
      const within = (days: number) =>
        samples.filter((s) => s.ok && s.ageMs <= days * DAY_MS).map((s) => s.bps);
      const expected = (days: number, needed: number) => {
        const values = within(days);
        return { mean: values.length >= needed ? sqlMean(values) : null, samples: values.length };
      };
      const [d1, d7, d30] = [expected(1, 1), expected(7, 2), expected(30, 6)];
      expect([entry.apy.d1Bps, entry.apy.d1Samples]).toEqual([d1.mean, d1.samples]);
      expect([entry.apy.d7Bps, entry.apy.d7Samples]).toEqual([d7.mean, d7.samples]);
      expect([entry.apyMean30dBps, entry.apyMean30dSamples]).toEqual([d30.mean, d30.samples]);
      // Unknown is null, never 0: a 0 only ever comes from samples that were 0.
      for (const [value, count] of [
        [entry.apy.d1Bps, d1.samples],
        [entry.apy.d7Bps, d7.samples],
        [entry.apyMean30dBps, d30.samples],
      ] as const) {
        if (count === 0) expect(value).toBeNull();
      }
      const history = await readOpportunityApyHistory({
        db: test.db,
        venues,
        opportunities: listing,
        id: VENUE,
        window: '30d',
        now: NOW,
      });
      expect(history.meanBps).toBe(entry.apyMean30dBps);
      expect(history.samples).toBe(entry.apyMean30dSamples);
      expect(history.points.reduce((total, point) => total + point.samples, 0)).toBe(d30.samples);
      for (const point of history.points) {
        if (point.samples === 0)
          expect([point.meanBps, point.minBps, point.maxBps]).toEqual([null, null, null]);
        else expect(point.minBps as number).toBeLessThanOrEqual(point.maxBps as number);
      }
    }),
    { numRuns: 40 },
  );
});
