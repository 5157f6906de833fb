// Test support for jest suites only (it registers hooks): product code and the bench never import it.
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { Opportunity } from '@yieldrouter/schemas';
import { seedFakeStakeOpportunities } from './stakeOnFakeChain';

/**
 * A jest suite's database with the fake stake venue listed: a fresh test database before all
 * tests (catalog seeded, opportunities listed), dropped after all.
 */
export function useFakeStakeDatabase(): {
  readonly test: () => TestDatabase;
  readonly opportunities: () => readonly Opportunity[];
} {
  let test: TestDatabase | undefined;
  let opportunities: readonly Opportunity[] = [];
  beforeAll(async () => {
    test = await createTestDatabase();
    opportunities = await seedFakeStakeOpportunities(test.db);
  });
  afterAll(() => test?.drop());
  return {
    test: () => {
      if (!test) throw new Error('the database is opened in beforeAll');
      return test;
    },
    opportunities: () => opportunities,
  };
}
