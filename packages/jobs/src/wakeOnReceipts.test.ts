import { setTimeout as sleep } from 'node:timers/promises';
import { prepareRoute } from '@yieldrouter/engine';
import type { VenueConfig } from '@yieldrouter/engine';
import { answeringRail } from '@yieldrouter/engine/src/bridge/bridgeTestBed';
import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import { markLegSubmitted, verifyLedger } from '@yieldrouter/ledger';
import {
  BRIDGE_TEST_BURNED,
  createTestDatabase,
  insertSettledBridge,
} from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { watchBridges } from './jobs/bridgeWatch';
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
  const { stop } = await wakeOnReceipts({ deps, everyMs, lookMs: 100 });
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

it('reads a bridge once per poll, not on a cadence of its own; follows what a poll finds', async () => {
  const { planId, burnTxId } = await insertSettledBridge(test.db, {
    speed: 'standard',
    settledAt: new Date(Date.now() - 60_000),
  });
  let attested = false;
  let minted = false;
  let reads = 0;
  const mintTx = `0x${'cd'.repeat(32)}`;
  const rail = answeringRail({
    readAttestation: async (_lane, burn) => {
      if (burn === burnTxId) reads += 1;
      return attested
        ? { status: 'complete', message: '0x00', attestation: '0x00', nonce: '0x02' }
        : { status: 'pending', detail: 'not attested yet' };
    },
    findMint: async () => (minted ? { status: 'found', txId: mintTx } : { status: 'not_found' }),
    readMint: async ({ txId }) => ({
      status: 'confirmed',
      txId,
      amountMicros: BRIDGE_TEST_BURNED,
      feeMicros: 0n,
    }),
  });
  const deps = testJobDeps(test, { adapters: fakeChain().adapters, venues, bridgeRail: rail });
  // The scheduled bridge watch every 100 ms (not run here: the schedule is BullMQ's).
  const cadence = { ...everyMs, 'settlement-watch': 0, 'bridge-watch': 100 };
  const wakes = await wakeOnReceipts({ deps, everyMs: cadence, lookMs: 50 });
  try {
    // Once at start; then nothing of its own: the schedule's runs are the only cadence (a
    // timer here read every attestation a second time per poll: about 10 reads in this second).
    await sleep(1_000);
    expect(reads).toBe(1);

    // A scheduled run finds the burn attested, its mint not landed: it is followed from here.
    attested = true;
    wakes.polled('bridge-watch', await watchBridges(deps));
    const polledReads = reads;
    expect(await waitFor(async () => (reads > polledReads + 1 ? true : undefined), 10_000)).toBe(
      true,
    );
    minted = true;
    const delivered = async () =>
      (await test.db.journalEntry.count({ where: { planId, kind: 'bridge_delivery' } })) === 1
        ? true
        : undefined;
    expect(await waitFor(delivered, 10_000)).toBe(true);
    expect((await verifyLedger(test.db)).problems).toEqual([]);
  } finally {
    await wakes.stop();
  }
});
