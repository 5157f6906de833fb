import { prepareRoute } from '@yieldrouter/engine';
import type { VenueConfig } from '@yieldrouter/engine';
import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import { markLegSubmitted, verifyLedger } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { JOB_NAMES } from './jobs/jobCatalog';
import type { JobName } from './jobs/jobCatalog';
import { testJobDeps, waitFor } from './testing/keeperTestBed';
import { wakeOnReceipts } from './wakeOnReceipts';

// Issue 45: a leg submitted wakes the settlement watch (NOTIFY ledger_receipts, migration 0064),
// with its poll a day away: nothing but the notification can have settled the leg.

const venues: VenueConfig = { ids: {}, apyPools: {}, apyMaxAgeMs: 3_600_000, apyMeanMinSamples: 3 };
let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const everyMs = Object.fromEntries(
  JOB_NAMES.map((name) => [name, name === 'settlement-watch' ? 86_400_000 : 0]),
) as Record<JobName, number>;

it('settles a submitted leg from its receipt without waiting for the poll', async () => {
  const chain = fakeChain();
  const deps = testJobDeps(test, { adapters: chain.adapters, venues });
  const stop = await wakeOnReceipts({ deps, everyMs, lookMs: 100 });
  try {
    const plan = await prepareRoute({
      db: test.db,
      adapters: chain.adapters,
      venues,
      opportunities: [],
      autoYieldVenueId: null,
      address: fakeBase58(),
      input: { amountMicros: 2_000_000n, token: 'USDC', stake: false, chain: 'solana' },
      now: new Date(),
    });
    const planId = plan.planId as string;
    const txId = chain.execute({ planId, amountMicros: 2_000_000n });
    await markLegSubmitted(test.db, { planId, legIndex: 0, txId, now: new Date() });
    const status = async () =>
      (await test.db.planLeg.findFirstOrThrow({ where: { planId, legIndex: 0 } })).status;
    expect(
      await waitFor(async () => ((await status()) === 'confirmed' ? true : undefined), 10_000),
    ).toBe(true);
    expect((await verifyLedger(test.db)).problems).toEqual([]);
  } finally {
    await stop();
  }
});
