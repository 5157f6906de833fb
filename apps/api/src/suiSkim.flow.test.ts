import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import request from 'supertest';
import { verifyLedger } from '@yieldrouter/ledger';
import { RebalancePlanDocument } from '@yieldrouter/schemas';
import { expectEachLegAsSimulated, expectLaterLegsDeferred } from './testing/legsAfterSimulation';
import type { TestApp } from './testing/startTestApp';
import { testKeys } from './testing/startTestApp';
import type { SuiSwapBedApp } from './testing/startSuiSwapBedApp';
import { SUI_TEST_USDC } from './testing/startSuiSwapBedApp';
import type { SuiVenueBeds } from './testing/startSuiVenueBedApp';
import { startSuiVenueBedApp } from './testing/startSuiVenueBedApp';
import {
  executeSuiLeg,
  fundedSuiOwner,
  harvestWallet,
  settleSuiLeg,
  signAndSettleSuiLeg,
  strategyPlan,
  suiUsdcOf,
} from './testing/suiBedLegs';
import { harvestExecute } from './testing/harvestExecute';
import { protocolFees } from './testing/swapTestTables';
import {
  driftsFound,
  expectOneSkimReceivable,
  receivableOf,
  reconcileTestBooks,
} from './testing/reconcileTestBooks';

// Issue #46 on the Sui bed: the owner holds the venue receipts, so the withdraw plan carries the
// skim to the treasury (SVC_SUI_TREASURY) inside the withdrawal's own transaction. Deposit →
// interest accrues → harvest → withdraw everything: the treasury's balance is fees:protocol to
// the micro, the owner got principal + net yield, the books verify and reconcile. A withdrawal
// signed without the skim books a receivable that reconciliation raises.
const TREASURY = new Ed25519Keypair().toSuiAddress();

let bed: SuiSwapBedApp;
let venues: SuiVenueBeds;
let t: TestApp;

beforeAll(async () => {
  ({ bed, venues } = await startSuiVenueBedApp({ SVC_SUI_TREASURY: TREASURY }));
  t = bed.t;
}, 60_000);
afterAll(() => bed.close());

const usdcOf = (owner: string) => suiUsdcOf(bed, owner);
const reconcile = () => reconcileTestBooks(t);

const receivable = () => receivableOf(t, 'sui');

/** A funded owner with a 20 USDC position in `venueId` that has earned interest. */
async function accruedPosition(venueId: string) {
  const { wallet, owner } = fundedSuiOwner(bed, 30_000_000n);
  const venue = venues[venueId];
  if (!venue) throw new Error(venueId);
  await signAndSettleSuiLeg(
    bed,
    await strategyPlan(bed, 'deposit', venueId, owner, 20_000_000n),
    wallet,
  );
  const shares = BigInt(
    (await t.db.position.findFirstOrThrow({ where: { wallet: owner, venueId } })).shares.toFixed(),
  );
  venue.accrue();
  return { wallet, owner, venue, worth: venue.value(owner, shares) };
}

/** A funded owner with a 20 USDC position in `venueId`, harvested once; what it is worth. */
async function harvestedPosition(venueId: string) {
  const { wallet, owner, worth } = await accruedPosition(venueId);
  const harvest = await harvestWallet(bed, owner);
  expect(harvest.outcome).toBe('harvested');
  return { wallet, owner, worth, feeMicros: BigInt(harvest.protocolFeeMicros) };
}

const sharesOf = async (owner: string, venueId: string) =>
  BigInt(
    (await t.db.position.findFirstOrThrow({ where: { wallet: owner, venueId } })).shares.toFixed(),
  );

describe.each(['suilend', 'navi', 'scallop'])('%s: the skim reaches the treasury', (venueId) => {
  it('deposit → accrue → harvest → withdraw everything: treasury == fees:protocol', async () => {
    const treasuryBefore = await usdcOf(TREASURY);
    const feesBefore = await protocolFees(t);
    const { wallet, owner, worth, feeMicros } = await harvestedPosition(venueId);
    expect(feeMicros).toBeGreaterThan(0n);

    const withdrawal = await strategyPlan(bed, 'withdraw', venueId, owner, worth);
    expect(withdrawal).toMatchObject({
      status: 'prepared',
      skim: { treasury: TREASURY, skimMicros: String(feeMicros), grossMicros: String(worth) },
    });
    expect(withdrawal.legs).toHaveLength(1);
    // Issue 44: the skim split off inside the leg is the plan's (`inlineSkimOf`): the owner is
    // judged against the leg less it, the treasury against it; no finding, no divergence.
    expect(withdrawal.simulation).toMatchObject({ status: 'simulated', findings: [] });
    const { stored } = await signAndSettleSuiLeg(bed, withdrawal, wallet);
    expect(stored.legs.map((leg) => [leg.status, leg.reviewReason])).toEqual([['confirmed', null]]);
    expect(stored.divergences ?? []).toEqual([]);

    // The treasury received the protocol's share on chain, and the books say exactly that.
    expect((await usdcOf(TREASURY)) - treasuryBefore).toBe(feeMicros);
    expect((await protocolFees(t)) - feesBefore).toBe(feeMicros);
    // Principal + net yield to the owner.
    expect(await usdcOf(owner)).toBe(10_000_000n + worth - feeMicros);
    expect(await receivable()).toBe(0n);
    expect((await verifyLedger(t.db)).problems).toEqual([]);
    expect(await reconcile()).toMatchObject({ unavailable: 0, aboveThreshold: 0 });
  });

  it('harvest (execute) realises the yield, pays the skim; withdraw everything', async () => {
    const treasuryBefore = await usdcOf(TREASURY);
    const feesBefore = await protocolFees(t);
    const { wallet, owner, venue, worth } = await accruedPosition(venueId);
    const { position, plan: realise } = await harvestExecute(t, owner);
    // One transaction: the venue pays the yield above the 20 USDC staked, the skim is split off.
    expect(realise.legs).toHaveLength(1);
    expect(BigInt(realise.legs[0]?.amountMicros ?? '0')).toBe(worth - 20_000_000n);
    const skim = BigInt(position.protocolFeeMicros ?? '0');
    expect(skim).toBeGreaterThan(0n);
    const { stored } = await signAndSettleSuiLeg(bed, realise, wallet);
    expect(stored.legs.map((leg) => [leg.status, leg.reviewReason])).toEqual([['confirmed', null]]);
    expect(await usdcOf(owner)).toBe(10_000_000n + BigInt(position.netYieldMicros ?? '0'));
    expect((await usdcOf(TREASURY)) - treasuryBefore).toBe(skim);
    expect((await protocolFees(t)) - feesBefore).toBe(skim);

    // Withdraw everything: the staked principal is still in the venue.
    const rest = venue.value(owner, await sharesOf(owner, venueId));
    const exit = await strategyPlan(bed, 'withdraw', venueId, owner, rest);
    const exitSkim = BigInt(exit.skim?.skimMicros ?? '0');
    await signAndSettleSuiLeg(bed, exit, wallet);
    const collected = (await usdcOf(TREASURY)) - treasuryBefore;
    expect(collected).toBe(skim + exitSkim);
    expect((await protocolFees(t)) - feesBefore).toBe(collected);
    // Principal + net yield (a venue that burns its shares rounded up keeps a micro of it).
    expect(rest).toBeGreaterThanOrEqual(20_000_000n - 1n);
    expect(await usdcOf(owner)).toBe(
      10_000_000n + BigInt(position.netYieldMicros ?? '0') + rest - exitSkim,
    );
    expect(await receivable()).toBe(0n);
    expect((await verifyLedger(t.db)).problems).toEqual([]);
    expect(await reconcile()).toMatchObject({ unavailable: 0, aboveThreshold: 0 });
  });
});

it('deposit → accrue → harvest → rebalance everything: the split reaches the treasury', async () => {
  const treasuryBefore = await usdcOf(TREASURY);
  const feesBefore = await protocolFees(t);
  const { wallet, owner, worth, feeMicros } = await harvestedPosition('suilend');
  const everything = { fromOpportunityId: 'suilend', toOpportunityId: 'navi', amountMicros: 'all' };
  const rebalance = RebalancePlanDocument.parse(
    (
      await request(t.app)
        .post(`/api/v1/wallets/${owner}/rebalance`)
        .set('X-API-Key', testKeys.owner)
        .send(everything)
        .expect(200)
    ).body,
  );
  // The withdrawal splits the protocol's share off for the treasury; navi gets the rest.
  expect(rebalance).toMatchObject({
    status: 'prepared',
    amountMicros: String(worth - feeMicros),
    skim: { treasury: TREASURY, skimMicros: String(feeMicros), grossMicros: String(worth) },
  });
  expect(rebalance.legs?.map((leg) => [leg.action, leg.amountMicros])).toEqual([
    ['withdraw', String(worth)],
    ['deposit', String(worth - feeMicros)],
  ]);
  const planId = rebalance.planId ?? '';
  // The withdrawal is dry-run at prepare; the deposit into navi once it settled (issue 44).
  expectLaterLegsDeferred(rebalance.simulation, 'dryRunTransactionBlock', 2);
  const stored = await expectEachLegAsSimulated(
    'sui',
    t,
    planId,
    2,
    async (index) => {
      const { digest } = await executeSuiLeg(bed, rebalance, wallet, index);
      await settleSuiLeg(bed, planId, digest, index);
      return digest;
    },
    (digest) => bed.adapters.sui.readLegChanges!(digest),
  );
  expect(stored.legs.map((leg) => [leg.status, leg.reviewReason])).toEqual([
    ['confirmed', null],
    ['confirmed', null],
  ]);

  expect((await usdcOf(TREASURY)) - treasuryBefore).toBe(feeMicros);
  expect((await protocolFees(t)) - feesBefore).toBe(feeMicros);
  expect(await receivable()).toBe(0n);
  // The owner's wallet is where it was; navi holds the owner's whole share.
  expect(await usdcOf(owner)).toBe(10_000_000n);
  const navi = venues['navi'];
  expect(navi?.value(owner, await sharesOf(owner, 'navi'))).toBe(worth - feeMicros);
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  expect(await reconcile()).toMatchObject({ unavailable: 0, aboveThreshold: 0 });
});

it('a withdrawal signed without its skim books a receivable and reconciliation raises it', async () => {
  const { wallet, owner, worth, feeMicros } = await harvestedPosition('scallop');
  const withdrawal = await strategyPlan(bed, 'withdraw', 'scallop', owner, worth);
  expect(withdrawal.skim?.skimMicros).toBe(String(feeMicros));
  const feesBefore = await protocolFees(t);
  const owedBefore = await receivable();
  // The owner signs the withdrawal with this plan's id but without the split to the treasury.
  const stripped = await bed.adapters.sui.buildWithdraw({
    planId: withdrawal.planId ?? '',
    owner,
    amountMicros: worth,
    target: {
      kind: 'venue',
      venue: {
        venueId: 'scallop',
        chain: 'sui',
        standard: 'router-adapter',
        ids: t.config.venues.ids['scallop'] ?? {},
      },
    },
  });
  const leg = withdrawal.legs?.[0];
  if (stripped.status !== 'prepared' || !leg) throw new Error(JSON.stringify(stripped));
  const payload = stripped.legs[0]?.payload;
  if (payload?.encoding !== 'sui-transaction-json') throw new Error('not a Sui leg');
  const signed = await executeSuiLeg(
    bed,
    { ...withdrawal, legs: [{ ...leg, transaction: payload.transaction }] },
    wallet,
  );
  const stored = await settleSuiLeg(bed, withdrawal.planId ?? '', signed.digest);
  expect(stored.legs[0]?.status).toBe('confirmed');

  expect(await usdcOf(owner)).toBe(10_000_000n + worth);
  expect((await receivable()) - owedBefore).toBe(feeMicros);
  expect((await protocolFees(t)) - feesBefore).toBe(-feeMicros);
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await expectOneSkimReceivable(t, await reconcile(), { owner, chain: 'sui', micros: feeMicros });
});

it('a treasury holding less than the splits the books say it received is treasury_below_books', async () => {
  // Every Sui skim above was split off inside its withdrawal's own transaction (no skim leg):
  // the books keep each on its leg and reconciliation compares their sum with the treasury.
  const { wallet, owner, worth } = await accruedPosition('scallop');
  const exit = await strategyPlan(bed, 'withdraw', 'scallop', owner, worth);
  await signAndSettleSuiLeg(bed, exit, wallet);
  const held = await usdcOf(TREASURY);
  expect(held).toBeGreaterThan(0n);
  expect(driftsFound(await reconcile())).not.toHaveProperty('treasury_below_books');
  bed.sui.setBalance(TREASURY, SUI_TEST_USDC, held - 1_000n);
  try {
    const report = await reconcile();
    expect(report.drifts.treasury_below_books).toEqual({ count: 1, micros: 1_000n });
    const drift = await t.db.reconciliationDrift.findFirstOrThrow({
      where: { runId: report.runId, kind: 'treasury_below_books' },
    });
    expect(drift).toMatchObject({ wallet: TREASURY, chain: 'sui', booksMicros: held });
  } finally {
    bed.sui.setBalance(TREASURY, SUI_TEST_USDC, held);
  }
});
