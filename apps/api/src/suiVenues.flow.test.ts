import request from 'supertest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { PlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import type { SuiSwapBedApp } from './testing/startSuiSwapBedApp';
import { SUI_TEST_USDC, startSuiSwapBedApp } from './testing/startSuiSwapBedApp';
import type { SuiVenueBeds } from './testing/startSuiVenueBedApp';
import { startSuiVenueBedApp } from './testing/startSuiVenueBedApp';
import {
  expectBooksClean,
  harvestWallet,
  signAndSettleSuiLeg,
  strategyPlan,
} from './testing/suiBedLegs';

// Each Sui venue end to end through the API on the Sui bed, which runs Suilend's, Navi's and
// Scallop's own functions: deposit plan → the owner's wallet resolves, signs, executes → the
// keeper's watch settles it from the protocol's events and balance changes → interest accrues →
// harvest books exactly what the protocol's state adds to the books → withdraw plan → settled;
// the ledger verifies and reconciliation finds no drift.
const SUI = '0x2::sui::SUI';

let bed: SuiSwapBedApp;
let sui: SuiFake;
let t: TestApp;
let client: SuiJsonRpcClient;
let venues: SuiVenueBeds;

beforeAll(async () => {
  ({ bed, venues } = await startSuiVenueBedApp());
  ({ sui, t, client } = bed);
}, 60_000);
afterAll(() => bed.close());

const plan = (
  kind: 'deposit' | 'withdraw',
  venueId: string,
  owner: string,
  amount: bigint | string,
) => strategyPlan(bed, kind, venueId, owner, amount);

const signAndSettle = async (document: PlanDocument, wallet: Ed25519Keypair) =>
  (await signAndSettleSuiLeg(bed, document, wallet)).stored;

const usdcOf = async (owner: string) =>
  BigInt((await client.getBalance({ owner, coinType: SUI_TEST_USDC })).totalBalance);

describe.each(['suilend', 'navi', 'scallop'])('%s through the API', (venueId) => {
  it('deposit → settle → accrue → harvest to the micro → withdraw; books verify and reconcile', async () => {
    const wallet = new Ed25519Keypair();
    const owner = wallet.toSuiAddress();
    sui.setBalance(owner, SUI, 5_000_000_000n);
    sui.setBalance(owner, SUI_TEST_USDC, 30_000_000n);
    const venue = venues[venueId];
    if (!venue) throw new Error(venueId);

    const deposit = await plan('deposit', venueId, owner, '20000000');
    expect(deposit).toMatchObject({ status: 'prepared', venueId });
    const stored = await signAndSettle(deposit, wallet);
    expect(stored.legs.map((leg) => [leg.status, leg.settledAmountMicros])).toEqual([
      ['confirmed', '20000000'],
    ]);
    expect(await usdcOf(owner)).toBe(10_000_000n);
    const staked = await t.db.position.findFirstOrThrow({
      where: { wallet: owner, venueId },
    });
    const shares = BigInt(staked.shares.toFixed());

    venue.accrue();
    const worth = venue.value(owner, shares);
    expect(worth).toBeGreaterThan(20_000_000n);
    const harvest = await harvestWallet(bed, owner);
    // Exactly what the protocol's state adds to the 20 USDC the books hold.
    expect(harvest).toMatchObject({
      outcome: 'harvested',
      grossYieldMicros: String(worth - 20_000_000n),
    });
    expect(harvest.positions[0]).toMatchObject({ valueMicros: String(worth) });

    const withdrawal = await plan('withdraw', venueId, owner, '15000000');
    const out = await signAndSettle(withdrawal, wallet);
    expect(out.legs.map((leg) => leg.status)).toEqual(['confirmed']);
    const received = (await usdcOf(owner)) - 10_000_000n;
    expect(received).toBeGreaterThanOrEqual(15_000_000n);
    expect(out.legs[0]?.settledAmountMicros).toBe(String(received));

    await expectBooksClean(bed);
  });
});

it('a Sui venue missing an object id: the plan is blocked naming the setting', async () => {
  const bare = await startSuiSwapBedApp((fake) => {
    const scallop = fake.addScallop({ usdc: SUI_TEST_USDC });
    const { market: _market, ...withoutMarket } = scallop.ids;
    return { SVC_VENUE_IDS: JSON.stringify({ scallop: withoutMarket }) };
  });
  try {
    const document = PlanDocument.parse(
      (
        await request(bare.t.app)
          .post('/api/v1/svc/strategies/deposit/plan')
          .send({
            strategyId: 'scallop',
            owner: new Ed25519Keypair().toSuiAddress(),
            amountMicros: '5000000',
          })
          .expect(200)
      ).body,
    );
    expect(document).toMatchObject({ status: 'blocked' });
    expect(document.blockers).toEqual([
      expect.objectContaining({
        code: 'venue_not_configured',
        field: 'SVC_VENUE_IDS.scallop',
        details: expect.objectContaining({ missing: 'market' }),
      }),
    ]);
  } finally {
    await bare.close();
  }
});

it.each([
  // `token` holds addresses and coin types (issue 41): a full 32-byte address inside the type is
  // a valid coin type, not key material, and is refused as a token we do not route.
  [`0x${'5c'.repeat(32)}::scam::SCAM`, 'BAD_REQUEST'],
  ['0x5c::scam::SCAM', 'BAD_REQUEST'],
])('an unknown coin type %s as the token: 400 naming body.token', async (token, code) => {
  const before = await t.db.plan.count();
  const res = await request(t.app)
    .post('/api/v1/svc/strategies/deposit/plan')
    .send({
      strategyId: 'navi',
      owner: new Ed25519Keypair().toSuiAddress(),
      amountMicros: '5000000',
      token,
    })
    .expect(400);
  expect(res.body).toMatchObject({ code, field: 'body.token' });
  expect(await t.db.plan.count()).toBe(before);
});
