import {
  autopilotPeriod,
  disableAutopilot,
  enableAutopilot,
  listOpportunities,
  tickAutopilot,
  tickDueAutopilots,
} from '@yieldrouter/engine';
import type { VenueConfig } from '@yieldrouter/engine';
import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import {
  fakeTwoVenues,
  seedFakeStakeOpportunities,
  stakeWallets,
} from '@yieldrouter/engine/src/wallet/testing/stakeOnFakeChain';
import { dailyApySamples } from '@yieldrouter/engine/src/venues/testing/dailyApySamples';
import { insertApySamples } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { Opportunity } from '@yieldrouter/schemas';
import { testJobDeps } from '../testing/keeperTestBed';
import { AutopilotTicksJobData, runAutopilotTicks } from './autopilotTicks';

// The keeper's autopilot ticks as a plain function (no queue): every due wallet once per period
// across pages; a rerun, a resumed run or ticks racing the job keep one decision per period.

const chain = fakeChain();
// kamino (the stake venue) and save ready on the fake Solana chain.
const venues: VenueConfig = fakeTwoVenues;
const staked = Array.from({ length: 5 }, () => fakeBase58());
const idle = Array.from({ length: 2 }, () => fakeBase58());
const off = fakeBase58();

let test: TestDatabase;
let opportunities: readonly Opportunity[];

const setMean = async (venueId: string, bps: number, at: Date) => {
  await test.db.apySample.deleteMany({ where: { venueId } });
  await insertApySamples(test.db, dailyApySamples(venueId, bps, { at }));
};

const ticksOf = (period: string) =>
  test.db.autopilotDecision.groupBy({
    by: ['wallet'],
    where: { kind: 'tick', period },
    _count: true,
  });

beforeAll(async () => {
  test = await createTestDatabase();
  const stakeOpportunities = await seedFakeStakeOpportunities(test.db);
  await stakeWallets({
    db: test.db,
    chain,
    opportunities: stakeOpportunities,
    wallets: staked,
    amountMicros: 3_000_000n,
  });
  opportunities = await listOpportunities({
    db: test.db,
    venues,
    enablement: [],
    now: new Date(),
  });
  const common = { db: test.db, adapters: chain.adapters, opportunities, now: new Date() };
  for (const address of [...staked, ...idle, off]) {
    await enableAutopilot({ ...common, address, input: { chain: 'solana' } });
  }
  await disableAutopilot({ ...common, address: off });
});
afterAll(() => test.drop());

it('ticks every due wallet across pages; a rerun ticks nothing; the next period ticks again', async () => {
  const now = new Date();
  await setMean('kamino', 500, now);
  await setMean('save', 1199, now);
  const deps = testJobDeps(test, { adapters: chain.adapters, venues, now: () => now });
  const data = AutopilotTicksJobData.parse({ pageSize: 2 });
  expect(await runAutopilotTicks(data, deps)).toEqual({
    wallets: 7,
    recorded: 7,
    switches: 0,
    errors: 0,
    pages: 4,
  });
  expect(await runAutopilotTicks(data, deps)).toMatchObject({ wallets: 0, recorded: 0 });
  const period = autopilotPeriod('monthly', now);
  const ticked = await ticksOf(period.key);
  expect(ticked.map((row) => row.wallet).sort()).toEqual([...staked, ...idle].sort());
  expect(ticked.every((row) => row._count === 1)).toBe(true);
  const outcomes = await test.db.autopilotDecision.groupBy({
    by: ['reason'],
    where: { period: period.key },
    _count: true,
  });
  expect(Object.fromEntries(outcomes.map((row) => [row.reason, row._count]))).toEqual({
    below_threshold: 5,
    no_position: 2,
  });
});

it('a run killed after its first page resumes with what is still due; ticks racing it change nothing', async () => {
  // The next period: every enabled wallet is due again; save now clears the threshold.
  const next = new Date(autopilotPeriod('monthly', new Date()).nextStartsAt.getTime() + 60_000);
  await setMean('save', 1200, next);
  const deps = testJobDeps(test, { adapters: chain.adapters, venues, now: () => next });
  const listed = await listOpportunities({ db: test.db, venues, enablement: [], now: next });
  const first = await tickDueAutopilots({
    db: test.db,
    adapters: chain.adapters,
    venues,
    opportunities: listed,
    pageSize: 3,
    now: () => next,
  });
  expect(first).toMatchObject({ wallets: 3, errors: [] });
  // The rest of the run, with owners' ticks of every wallet at the same time.
  const [run] = await Promise.all([
    runAutopilotTicks(AutopilotTicksJobData.parse({ pageSize: 2 }), deps),
    ...[...staked, ...idle].map((address) =>
      tickAutopilot({
        db: test.db,
        adapters: chain.adapters,
        venues,
        address,
        opportunities: listed,
        now: next,
      }),
    ),
  ]);
  expect(run).toMatchObject({ errors: 0 });
  const ticked = await ticksOf(autopilotPeriod('monthly', next).key);
  expect(ticked).toHaveLength(7);
  expect(ticked.every((row) => row._count === 1)).toBe(true);
  const switched = await test.db.autopilotDecision.findMany({
    where: { kind: 'tick', period: autopilotPeriod('monthly', next).key, outcome: 'switch' },
  });
  // Each staked wallet switches once, with one rebalance plan prepared for its owner to sign.
  expect(switched.map((row) => row.wallet).sort()).toEqual([...staked].sort());
  expect(switched.every((row) => row.reason === 'challenger_clears_threshold')).toBe(true);
  const plans = await test.db.plan.findMany({ where: { kind: 'rebalance' } });
  expect(plans).toHaveLength(staked.length);
  expect(plans.every((plan) => plan.status === 'prepared')).toBe(true);
  expect(new Set(switched.map((row) => row.planId))).toEqual(new Set(plans.map((plan) => plan.id)));
  expect(await runAutopilotTicks(AutopilotTicksJobData.parse({}), deps)).toMatchObject({
    wallets: 0,
  });
});
