import pino from 'pino';
import { createEmptyTestDatabase, createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { readSettings } from './config/readSettings';
import { ServiceSettings, serviceConfig } from './config/serviceSettings';
import { createServices } from './createServices';
import { VENUE_CATALOG } from './venues/catalog';

const config = serviceConfig(readSettings(ServiceSettings, {}, { inScope: () => false }));
const logger = pino({ level: 'silent' });

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});

afterAll(async () => {
  await test.drop();
});

describe('createServices', () => {
  it('opens the books with the catalog seeded, and builds what every process uses on them', async () => {
    const services = await createServices({ config: { ...config, databaseUrl: test.url }, logger });
    try {
      expect(await services.books.venue.count()).toBe(VENUE_CATALOG.length);
      const useCases = services.useCases();
      expect(await useCases.booksReachable()).toBe(true);
      expect(await services.store.findActiveKey('no-such-hash')).toBeNull();
      expect(Object.keys(services.adapters).sort()).toEqual(['arbitrum', 'base', 'solana', 'sui']);
      // A writing use case reports its time to the observer it was built with.
      const writes: [string, boolean][] = [];
      const timed = services.useCases({
        ledgerWrite: (operation, _, ok) => writes.push([operation, ok]),
      });
      await expect(
        timed.plan.cancelPlan({ planId: 'plan_none', allowWallet: () => true, now: new Date() }),
      ).rejects.toMatchObject({ code: 'PLAN_NOT_FOUND' });
      expect(writes).toEqual([['cancelPlan', false]]);
    } finally {
      await services.close();
    }
  });

  it('read only: applies no migration and seeds nothing', async () => {
    const empty = await createEmptyTestDatabase();
    try {
      const services = await createServices({
        config: { ...config, databaseUrl: empty.url },
        logger,
        migrate: false,
      });
      try {
        const [row] = await services.books.$queryRaw<
          { venues: string | null }[]
        >`SELECT to_regclass('venues')::text AS venues`;
        expect(row?.venues).toBeNull();
      } finally {
        await services.close();
      }
    } finally {
      await empty.drop();
    }
  });
});
