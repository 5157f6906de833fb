import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { ApyUpdatedPayload } from '@yieldrouter/schemas';
import type { ApyQuery, ApyReader, ApyReading } from '../apy';
import { refreshApy } from './refreshApy';
import { seedVenueCatalog } from './seedVenueCatalog';
import type { VenueConfig } from './venueConfig';

// apy.updated: one outbox event per venue whose APY changed from its previous stored reading,
// written in the same transaction as the history rows. Real Postgres; the reader is scripted.

const venues: VenueConfig = {
  ids: {},
  apyPools: { kamino: 'pool-kamino', navi: 'pool-navi' },
  apyMaxAgeMs: 3_600_000,
  apyMeanMinSamples: 3,
};
type Script = Readonly<Record<string, number | 'fail'>>;

/** Answers from `script` (venue → bps or a failure); unscripted venues are unavailable. */
function scriptedReader(script: () => Script): ApyReader {
  return {
    source: 'scripted',
    read: async (queries: readonly ApyQuery[]) =>
      queries.map((query): ApyReading => {
        const value = script()[query.venueId];
        return typeof value === 'number'
          ? {
              venueId: query.venueId,
              status: 'ok',
              source: 'scripted',
              asOf: new Date(),
              apyBps: value,
              apyBaseBps: value,
              apyRewardBps: null,
              tvlUsdMicros: 1_000_000n,
            }
          : {
              venueId: query.venueId,
              status: 'unavailable',
              source: 'scripted',
              reason: value === 'fail' ? 'source_timeout' : 'source_not_configured',
              detail: 'scripted',
            };
      }),
  };
}

let test: TestDatabase;
let script: Script = {};
beforeAll(async () => {
  test = await createTestDatabase();
  await seedVenueCatalog(test.db);
});
afterAll(() => test.drop());

const refresh = (reader: ApyReader = scriptedReader(() => script)) =>
  refreshApy({ db: test.db, reader, venues, now: () => new Date() });
const events = async () =>
  (
    await test.db.outboxEvent.findMany({
      where: { type: 'apy.updated' },
      orderBy: { seq: 'asc' },
    })
  ).map((event) => {
    expect(event.wallet).toBeNull();
    return ApyUpdatedPayload.parse(event.payload);
  });

describe('refreshApy → apy.updated', () => {
  it('writes one event per changed venue, none for repeats, with the history in one go', async () => {
    script = { kamino: 512, navi: 'fail' };
    expect((await refresh()).apyUpdatedEvents).toBe(1);
    expect(await events()).toEqual([
      expect.objectContaining({
        venueId: 'kamino',
        chain: 'solana',
        previousApyBps: null,
        apyBps: 512,
        apyBaseBps: 512,
        reason: null,
        source: 'scripted',
        opportunityId: expect.stringMatching(/^svcop/),
      }),
    ]);

    // The same values again: history grows, no event.
    const samples = await test.db.apySample.count();
    expect((await refresh()).apyUpdatedEvents).toBe(0);
    expect(await test.db.apySample.count()).toBe(samples * 2);
    expect(await events()).toHaveLength(1);

    // A new value and a venue that becomes known.
    script = { kamino: 530, navi: 301 };
    expect((await refresh()).apyUpdatedEvents).toBe(2);
    // In catalog order (Sui's navi before Solana's kamino).
    expect((await events()).slice(1)).toEqual([
      expect.objectContaining({ venueId: 'navi', previousApyBps: null, apyBps: 301 }),
      expect.objectContaining({ venueId: 'kamino', previousApyBps: 512, apyBps: 530 }),
    ]);
  });

  it('a failing source turns known values into null with a reason, once', async () => {
    const before = (await events()).length;
    script = { kamino: 'fail', navi: 'fail' };
    await refresh();
    await refresh();
    const changed = (await events()).slice(before);
    expect(changed.map((event) => [event.venueId, event.apyBps, event.reason])).toEqual([
      ['navi', null, 'source_timeout'],
      ['kamino', null, 'source_timeout'],
    ]);
  });

  it('a reader that throws is a failed source: every venue unavailable, no throw', async () => {
    script = { kamino: 600 };
    await refresh();
    const before = (await events()).length;
    const throwing: ApyReader = {
      source: 'scripted',
      read: async () => {
        throw new Error('boom');
      },
    };
    const result = await refresh(throwing);
    expect(result).toMatchObject({ ok: 0, unavailable: result.venues, apyUpdatedEvents: 1 });
    expect((await events()).slice(before)).toEqual([
      expect.objectContaining({ venueId: 'kamino', apyBps: null, reason: 'source_error' }),
    ]);
  });

  it('two refreshes at once that see the same change write one event', async () => {
    script = { kamino: 777 };
    const before = (await events()).length;
    const results = await Promise.all([refresh(), refresh(), refresh()]);
    expect(results.map((result) => result.apyUpdatedEvents).sort()).toEqual([0, 0, 1]);
    expect((await events()).slice(before)).toHaveLength(1);
  });
});
