import fc from 'fast-check';
import { createDatabase } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { VENUE_CATALOG } from './catalog';
import type { VenueCatalogEntry } from './catalog';
import { seedVenueCatalog } from './seedVenueCatalog';

// Opportunity ids are permanent: minted once per venue, kept across restarts and re-seeding in
// any order, whatever happens to the venue's mutable catalog fields; never derived from them.

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const idsOf = async (db: TestDatabase['db']) =>
  new Map(
    (await db.venue.findMany({ select: { id: true, opportunityId: true } })).map((venue) => [
      venue.id,
      venue.opportunityId,
    ]),
  );

/** Everything a catalog edit may change about a venue, except its id and chain. */
const edit = fc.record({
  protocol: fc.string({ minLength: 1, maxLength: 20 }),
  readiness: fc.constantFrom('ready' as const, 'listed' as const, 'planned' as const),
  wave: fc.integer({ min: 1, max: 9 }),
  priority: fc.integer({ min: -50, max: 50 }),
  minDepositMicros: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  actions: fc.subarray(['deposit', 'withdraw', 'harvest'] as const),
});

const catalogs = fc
  .tuple(
    fc.shuffledSubarray([...VENUE_CATALOG], { minLength: 1 }),
    fc.array(edit, { minLength: VENUE_CATALOG.length, maxLength: VENUE_CATALOG.length }),
  )
  .map(([venues, edits]) =>
    venues.map((venue, index): VenueCatalogEntry => ({ ...venue, ...edits[index] })),
  );

describe('opportunity ids', () => {
  it('stay the same across restarts and re-seeding in any order with any field edits', async () => {
    await seedVenueCatalog(test.db);
    const first = await idsOf(test.db);
    expect(first.size).toBe(VENUE_CATALOG.length);
    await fc.assert(
      fc.asyncProperty(catalogs, fc.boolean(), async (catalog, restart) => {
        // A restart is a new process: a new pool on the same database.
        const db = restart ? await createDatabase({ databaseUrl: test.url, poolSize: 2 }) : test.db;
        try {
          await seedVenueCatalog(db, catalog);
          await seedVenueCatalog(db);
          expect(await idsOf(db)).toEqual(first);
        } finally {
          if (restart) await db.close();
        }
      }),
      { numRuns: 25 },
    );
  });

  it('concurrent first seeds (instances starting together) mint one id per venue', async () => {
    const fresh = await createTestDatabase();
    try {
      await Promise.all([1, 2, 3].map(() => seedVenueCatalog(fresh.db)));
      const ids = await idsOf(fresh.db);
      expect(ids.size).toBe(VENUE_CATALOG.length);
      await seedVenueCatalog(fresh.db, [...VENUE_CATALOG].reverse());
      expect(await idsOf(fresh.db)).toEqual(ids);
    } finally {
      await fresh.drop();
    }
  });

  it('are minted, not computed: the same catalog in another database gets other ids', async () => {
    const other = await createTestDatabase();
    try {
      await seedVenueCatalog(other.db);
      const ours = await idsOf(test.db);
      for (const [venueId, opportunityId] of await idsOf(other.db)) {
        expect(opportunityId).toMatch(/^svcop[0-9a-f]{24}$/);
        expect(ours.get(venueId)).not.toBe(opportunityId);
      }
    } finally {
      await other.drop();
    }
  });
});
