import request from 'supertest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { reconcileBooks } from '@yieldrouter/engine';
import { verifyLedger } from '@yieldrouter/ledger';
import { PlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import type { SuiSwapBedApp } from './testing/startSuiSwapBedApp';
import { SUI_TEST_USDC, startSuiSwapBedApp } from './testing/startSuiSwapBedApp';
import {
  executeSuiLeg,
  harvestWallet,
  OWNER_AND_KEEPER_KEYS,
  settleSuiLeg,
  signAndSettleSuiLeg,
} from './testing/suiBedLegs';
import { protocolFees } from './testing/swapTestTables';

// Issue #46 on the Sui bed: the owner holds the venue receipts, so the withdraw plan carries the
// skim to the treasury (SVC_SUI_TREASURY) inside the withdrawal's own transaction. Deposit →
// interest accrues → harvest → withdraw everything: the treasury's balance is fees:protocol to
// the micro, the owner got principal + net yield, the books verify and reconcile. A withdrawal
// signed without the skim books a receivable that reconciliation raises.
const SUI = '0x2::sui::SUI';
const TREASURY = new Ed25519Keypair().toSuiAddress();

let bed: SuiSwapBedApp;
let sui: SuiFake;
let t: TestApp;
let client: SuiJsonRpcClient;
const venues: Record<string, { accrue(): void; value(owner: string, shares: bigint): bigint }> = {};

beforeAll(async () => {
  bed = await startSuiSwapBedApp((fake) => {
    const suilend = fake.addSuilend({ usdc: SUI_TEST_USDC, availableAmount: 1_000_000_000_000n });
    const navi = fake.addNavi({ usdc: SUI_TEST_USDC });
    const scallop = fake.addScallop({ usdc: SUI_TEST_USDC, cash: 1_000_000_000_000n });
    venues.suilend = {
      accrue: () => suilend.accrue(37_000_000_123n),
      value: (_owner, shares) => suilend.redeemValue(shares),
    };
    venues.navi = {
      accrue: () => navi.accrue(37_001n, 1_000_000n),
      value: (owner) => navi.balanceValue(owner),
    };
    venues.scallop = {
      accrue: () => scallop.accrue(41_000_000_777n),
      value: (_owner, shares) => scallop.redeemValue(shares),
    };
    return {
      SVC_VENUE_IDS: JSON.stringify({ suilend: suilend.ids, navi: navi.ids, scallop: scallop.ids }),
      SVC_API_KEYS: OWNER_AND_KEEPER_KEYS,
      SVC_SUI_TREASURY: TREASURY,
    };
  });
  ({ sui, t, client } = bed);
}, 60_000);
afterAll(() => bed.close());

const plan = async (kind: 'deposit' | 'withdraw', venueId: string, owner: string, amount: bigint) =>
  PlanDocument.parse(
    (
      await request(t.app)
        .post(`/api/v1/svc/strategies/${kind}/plan`)
        .send({ strategyId: venueId, owner, amountMicros: String(amount) })
        .expect(200)
    ).body,
  );
const usdcOf = async (owner: string) =>
  BigInt((await client.getBalance({ owner, coinType: SUI_TEST_USDC })).totalBalance);
const reconcile = () =>
  reconcileBooks({
    db: t.db,
    adapters: bed.adapters,
    venues: t.config.venues,
    treasuries: t.config.treasuries,
    thresholdMicros: 1n,
    trigger: 'manual',
    now: () => new Date(),
  });
const receivable = async () =>
  (await t.db.ledgerAccount.findFirst({ where: { bucket: 'fees:receivable', chain: 'sui' } }))
    ?.balanceMicros ?? 0n;

/** A funded owner with a 20 USDC position in `venueId`, harvested once; what it is worth. */
async function harvestedPosition(venueId: string) {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  sui.setBalance(owner, SUI, 5_000_000_000n);
  sui.setBalance(owner, SUI_TEST_USDC, 30_000_000n);
  const venue = venues[venueId];
  if (!venue) throw new Error(venueId);
  await signAndSettleSuiLeg(bed, await plan('deposit', venueId, owner, 20_000_000n), wallet);
  const shares = BigInt(
    (await t.db.position.findFirstOrThrow({ where: { wallet: owner, venueId } })).shares.toFixed(),
  );
  venue.accrue();
  const harvest = await harvestWallet(bed, owner);
  expect(harvest.outcome).toBe('harvested');
  return {
    wallet,
    owner,
    worth: venue.value(owner, shares),
    feeMicros: BigInt(harvest.protocolFeeMicros),
  };
}

describe.each(['suilend', 'navi', 'scallop'])('%s: the skim reaches the treasury', (venueId) => {
  it('deposit → accrue → harvest → withdraw everything: treasury == fees:protocol', async () => {
    const treasuryBefore = await usdcOf(TREASURY);
    const feesBefore = await protocolFees(t);
    const { wallet, owner, worth, feeMicros } = await harvestedPosition(venueId);
    expect(feeMicros).toBeGreaterThan(0n);

    const withdrawal = await plan('withdraw', venueId, owner, worth);
    expect(withdrawal).toMatchObject({
      status: 'prepared',
      skim: { treasury: TREASURY, skimMicros: String(feeMicros), grossMicros: String(worth) },
    });
    expect(withdrawal.legs).toHaveLength(1);
    const { stored } = await signAndSettleSuiLeg(bed, withdrawal, wallet);
    expect(stored.legs.map((leg) => [leg.status, leg.reviewReason])).toEqual([['confirmed', null]]);

    // The treasury received the protocol's share on chain, and the books say exactly that.
    expect((await usdcOf(TREASURY)) - treasuryBefore).toBe(feeMicros);
    expect((await protocolFees(t)) - feesBefore).toBe(feeMicros);
    // Principal + net yield to the owner.
    expect(await usdcOf(owner)).toBe(10_000_000n + worth - feeMicros);
    expect(await receivable()).toBe(0n);
    expect((await verifyLedger(t.db)).problems).toEqual([]);
    expect(await reconcile()).toMatchObject({ unavailable: 0, aboveThreshold: 0 });
  });
});

it('a withdrawal signed without its skim books a receivable and reconciliation raises it', async () => {
  const { wallet, owner, worth, feeMicros } = await harvestedPosition('scallop');
  const withdrawal = await plan('withdraw', 'scallop', owner, worth);
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
  const report = await reconcile();
  expect(report.drifts.skim_receivable).toEqual({ count: 1, micros: feeMicros });
  const drift = await t.db.reconciliationDrift.findFirstOrThrow({
    where: { runId: report.runId, kind: 'skim_receivable' },
  });
  expect(drift).toMatchObject({ wallet: owner, chain: 'sui', driftMicros: feeMicros });
});
